extension P256 {
    /// A 256-bit unsigned integer as four 64-bit limbs, least significant first: the storage of
    /// field elements and scalars, with the Montgomery arithmetic both share.
    struct Limbs: Equatable, Sendable {
        var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64

        @inline(__always)
        init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) {
            self.l0 = l0; self.l1 = l1; self.l2 = l2; self.l3 = l3
        }

        static let zero = Limbs(0, 0, 0, 0)

        /// The number whose 32 big-endian bytes start at `offset` in `bytes` (caller checks the length).
        init(bigEndian bytes: [UInt8], offset: Int) {
            func word(_ start: Int) -> UInt64 {
                var w: UInt64 = 0
                for i in 0..<8 { w = w << 8 | UInt64(bytes[start + i]) }
                return w
            }
            self.init(word(offset + 24), word(offset + 16), word(offset + 8), word(offset))
        }

        /// The 32 big-endian bytes.
        var bigEndianBytes: [UInt8] {
            var out = [UInt8]()
            out.reserveCapacity(32)
            for w in [l3, l2, l1, l0] {
                for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: w >> (UInt64(i) * 8))) }
            }
            return out
        }

        @inline(__always) var isZero: Bool { (l0 | l1 | l2 | l3) == 0 }
        @inline(__always) var isOdd: Bool { l0 & 1 == 1 }

        /// Whether `self < other` as unsigned integers.
        @inline(__always)
        func isLess(than other: Limbs) -> Bool {
            var borrow: UInt64 = 0
            _ = Limbs.subtract(self, other, borrow: &borrow)
            return borrow != 0
        }

        /// Bit `i` (0 = least significant).
        @inline(__always)
        func bit(_ i: Int) -> Bool {
            let w: UInt64
            switch i >> 6 { case 0: w = l0; case 1: w = l1; case 2: w = l2; default: w = l3 }
            return (w >> UInt64(i & 63)) & 1 == 1
        }

        /// Four bits starting at bit `4 * i`.
        @inline(__always)
        func nibble(_ i: Int) -> Int {
            let w: UInt64
            switch i >> 4 { case 0: w = l0; case 1: w = l1; case 2: w = l2; default: w = l3 }
            return Int((w >> UInt64((i & 15) * 4)) & 15)
        }

        /// `a + b` with the carry out (0 or 1).
        @inline(__always)
        static func add(_ a: Limbs, _ b: Limbs, carry: inout UInt64) -> Limbs {
            let (s0, c0) = a.l0.addingReportingOverflow(b.l0)
            let (t1, c1a) = a.l1.addingReportingOverflow(b.l1)
            let (s1, c1b) = t1.addingReportingOverflow(c0 ? 1 : 0)
            let (t2, c2a) = a.l2.addingReportingOverflow(b.l2)
            let (s2, c2b) = t2.addingReportingOverflow((c1a || c1b) ? 1 : 0)
            let (t3, c3a) = a.l3.addingReportingOverflow(b.l3)
            let (s3, c3b) = t3.addingReportingOverflow((c2a || c2b) ? 1 : 0)
            carry = (c3a || c3b) ? 1 : 0
            return Limbs(s0, s1, s2, s3)
        }

        /// `a - b` with the borrow out (0 or 1).
        @inline(__always)
        static func subtract(_ a: Limbs, _ b: Limbs, borrow: inout UInt64) -> Limbs {
            let (d0, b0) = a.l0.subtractingReportingOverflow(b.l0)
            let (t1, b1a) = a.l1.subtractingReportingOverflow(b.l1)
            let (d1, b1b) = t1.subtractingReportingOverflow(b0 ? 1 : 0)
            let (t2, b2a) = a.l2.subtractingReportingOverflow(b.l2)
            let (d2, b2b) = t2.subtractingReportingOverflow((b1a || b1b) ? 1 : 0)
            let (t3, b3a) = a.l3.subtractingReportingOverflow(b.l3)
            let (d3, b3b) = t3.subtractingReportingOverflow((b2a || b2b) ? 1 : 0)
            borrow = (b3a || b3b) ? 1 : 0
            return Limbs(d0, d1, d2, d3)
        }

        /// `(a + b) mod m` for `a, b < m`.
        @inline(__always)
        static func addModulo(_ a: Limbs, _ b: Limbs, _ m: Limbs) -> Limbs {
            var carry: UInt64 = 0
            let sum = add(a, b, carry: &carry)
            var borrow: UInt64 = 0
            let reduced = subtract(sum, m, borrow: &borrow)
            // Keep the difference when the sum overflowed 2^256 or was at least m.
            return (carry != 0 || borrow == 0) ? reduced : sum
        }

        /// `(a - b) mod m` for `a, b < m`.
        @inline(__always)
        static func subtractModulo(_ a: Limbs, _ b: Limbs, _ m: Limbs) -> Limbs {
            var borrow: UInt64 = 0
            let difference = subtract(a, b, borrow: &borrow)
            if borrow == 0 { return difference }
            var carry: UInt64 = 0
            return add(difference, m, carry: &carry)
        }

        /// `hi:lo = a * b + c + d` (cannot overflow 128 bits).
        @inline(__always)
        static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
            let t = UInt128(a) &* UInt128(b) &+ UInt128(c) &+ UInt128(d)
            return (UInt64(truncatingIfNeeded: t &>> 64), UInt64(truncatingIfNeeded: t))
        }

        /// One round of CIOS Montgomery multiplication: `t = (t + a·bi + u·m) / 2^64`.
        @inline(__always)
        static func montgomeryRound(_ t: inout (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: Limbs, _ bi: UInt64,
                                    _ m: Limbs, _ n0: UInt64) {
            var c: UInt64
            var r0: UInt64, r1: UInt64, r2: UInt64, r3: UInt64
            (c, r0) = multiplyAdd(a.l0, bi, t.0, 0)
            (c, r1) = multiplyAdd(a.l1, bi, t.1, c)
            (c, r2) = multiplyAdd(a.l2, bi, t.2, c)
            (c, r3) = multiplyAdd(a.l3, bi, t.3, c)
            let (r4, o4) = t.4.addingReportingOverflow(c)
            let r5: UInt64 = o4 ? 1 : 0
            let u = r0 &* n0
            (c, _) = multiplyAdd(u, m.l0, r0, 0)
            (c, t.0) = multiplyAdd(u, m.l1, r1, c)
            (c, t.1) = multiplyAdd(u, m.l2, r2, c)
            (c, t.2) = multiplyAdd(u, m.l3, r3, c)
            let (s3, o3) = r4.addingReportingOverflow(c)
            t.3 = s3
            t.4 = r5 &+ (o3 ? 1 : 0)
        }

        /// `a · b · 2^-256 mod m` for `a, b < m`, `m` odd, `n0 = -m^-1 mod 2^64`.
        @inline(__always)
        static func montgomeryMultiply(_ a: Limbs, _ b: Limbs, _ m: Limbs, _ n0: UInt64) -> Limbs {
            var t: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
            montgomeryRound(&t, a, b.l0, m, n0)
            montgomeryRound(&t, a, b.l1, m, n0)
            montgomeryRound(&t, a, b.l2, m, n0)
            montgomeryRound(&t, a, b.l3, m, n0)
            let value = Limbs(t.0, t.1, t.2, t.3)
            var borrow: UInt64 = 0
            let reduced = subtract(value, m, borrow: &borrow)
            return (t.4 != 0 || borrow == 0) ? reduced : value
        }

        /// `self >> 1`.
        @inline(__always)
        func shiftedRightOne() -> Limbs {
            Limbs(l0 >> 1 | l1 << 63, l1 >> 1 | l2 << 63, l2 >> 1 | l3 << 63, l3 >> 1)
        }

        /// `self + small` (caller knows it does not overflow).
        @inline(__always)
        func adding(small: UInt64) -> Limbs {
            var carry: UInt64 = 0
            return Limbs.add(self, Limbs(small, 0, 0, 0), carry: &carry)
        }

        /// `self - small` (caller knows it does not underflow).
        @inline(__always)
        func subtracting(small: UInt64) -> Limbs {
            var borrow: UInt64 = 0
            return Limbs.subtract(self, Limbs(small, 0, 0, 0), borrow: &borrow)
        }
    }
}
