extension ECDSA {
    /// Montgomery arithmetic modulo an odd number of any limb count, on little-endian `[UInt64]`
    /// limb arrays of that count, always fully reduced. The general (slower) path behind P-384,
    /// and an independent reference the specialised P-256 code is tested against.
    struct MontgomeryModulus: Sendable {
        /// The modulus, least significant limb first.
        let limbs: [UInt64]
        /// −m⁻¹ mod 2⁶⁴.
        let n0: UInt64
        /// 2^(128·count) mod m: multiplying by it enters Montgomery form.
        let rSquared: [UInt64]
        /// 1 in Montgomery form (2^(64·count) mod m).
        let one: [UInt64]

        var count: Int { limbs.count }

        /// The arithmetic for an odd modulus `limbs` (least significant first, top limb nonzero).
        init(limbs: [UInt64]) {
            self.limbs = limbs
            var inverse: UInt64 = 1 // Newton's iteration for m⁻¹ mod 2⁶⁴ (m odd).
            for _ in 0..<6 { inverse = inverse &* (2 &- limbs[0] &* inverse) }
            n0 = 0 &- inverse
            // 2^k mod m by doubling: k = 64·count gives R, 128·count gives R².
            var power = [UInt64](repeating: 0, count: limbs.count)
            power[0] = 1
            var r = power
            for step in 1...(128 * limbs.count) {
                power = Self.addModulo(power, power, limbs)
                if step == 64 * limbs.count { r = power }
            }
            one = r
            rSquared = power
        }

        /// The value of big-endian `bytes` (exactly 8·count of them), or nil when not below m.
        func canonical(bigEndian bytes: ArraySlice<UInt8>) -> [UInt64]? {
            guard bytes.count == 8 * count else { return nil }
            var out = [UInt64](repeating: 0, count: count)
            var index = bytes.startIndex
            for limb in (0..<count).reversed() {
                var w: UInt64 = 0
                for _ in 0..<8 { w = w << 8 | UInt64(bytes[index]); index += 1 }
                out[limb] = w
            }
            return Self.isLess(out, limbs) ? out : nil
        }

        /// Big-endian bytes of a canonical value.
        func bigEndianBytes(_ value: [UInt64]) -> [UInt8] {
            var out = [UInt8]()
            out.reserveCapacity(8 * count)
            for w in value.reversed() {
                for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: w >> (UInt64(i) * 8))) }
            }
            return out
        }

        static func isLess(_ a: [UInt64], _ b: [UInt64]) -> Bool {
            for i in (0..<a.count).reversed() where a[i] != b[i] { return a[i] < b[i] }
            return false
        }

        static func isZero(_ a: [UInt64]) -> Bool { a.allSatisfy { $0 == 0 } }

        /// `a + b` and the carry out.
        static func add(_ a: [UInt64], _ b: [UInt64]) -> ([UInt64], Bool) {
            var out = a
            var carry = false
            for i in 0..<a.count {
                let (s1, o1) = a[i].addingReportingOverflow(b[i])
                let (s2, o2) = s1.addingReportingOverflow(carry ? 1 : 0)
                out[i] = s2
                carry = o1 || o2
            }
            return (out, carry)
        }

        /// `a − b` and the borrow out.
        static func subtract(_ a: [UInt64], _ b: [UInt64]) -> ([UInt64], Bool) {
            var out = a
            var borrow = false
            for i in 0..<a.count {
                let (d1, o1) = a[i].subtractingReportingOverflow(b[i])
                let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
                out[i] = d2
                borrow = o1 || o2
            }
            return (out, borrow)
        }

        static func addModulo(_ a: [UInt64], _ b: [UInt64], _ m: [UInt64]) -> [UInt64] {
            let (sum, carry) = add(a, b)
            let (reduced, borrow) = subtract(sum, m)
            return (carry || !borrow) ? reduced : sum
        }

        func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] { Self.addModulo(a, b, limbs) }

        func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
            let (difference, borrow) = Self.subtract(a, b)
            return borrow ? Self.add(difference, limbs).0 : difference
        }

        /// `a · b · R⁻¹ mod m` (CIOS).
        func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
            let k = count
            var t = [UInt64](repeating: 0, count: k + 2)
            for i in 0..<k {
                var c: UInt64 = 0
                for j in 0..<k { (c, t[j]) = P256.Limbs.multiplyAdd(a[j], b[i], t[j], c) }
                let (tk, o) = t[k].addingReportingOverflow(c)
                t[k] = tk
                t[k + 1] = o ? 1 : 0
                let u = t[0] &* n0
                (c, _) = P256.Limbs.multiplyAdd(u, limbs[0], t[0], 0)
                for j in 1..<k { (c, t[j - 1]) = P256.Limbs.multiplyAdd(u, limbs[j], t[j], c) }
                let (top, o2) = t[k].addingReportingOverflow(c)
                t[k - 1] = top
                t[k] = t[k + 1] &+ (o2 ? 1 : 0)
            }
            let value = Array(t[0..<k])
            let (reduced, borrow) = Self.subtract(value, limbs)
            return (t[k] != 0 || !borrow) ? reduced : value
        }

        func toMontgomery(_ a: [UInt64]) -> [UInt64] { multiply(a, rSquared) }

        func fromMontgomery(_ a: [UInt64]) -> [UInt64] {
            var unit = [UInt64](repeating: 0, count: count)
            unit[0] = 1
            return multiply(a, unit)
        }

        /// `a^(m−2)` in Montgomery form: the inverse of a nonzero `a` for prime m.
        func inverse(_ a: [UInt64]) -> [UInt64] {
            var two = [UInt64](repeating: 0, count: count)
            two[0] = 2
            let exponent = Self.subtract(limbs, two).0
            var result = one
            for i in (0..<(64 * count)).reversed() {
                result = multiply(result, result)
                if (exponent[i >> 6] >> UInt64(i & 63)) & 1 == 1 { result = multiply(result, a) }
            }
            return result
        }
    }
}
