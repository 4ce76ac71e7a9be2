/// An element of GF(2^255 - 19), the field of Ed25519's coordinates (RFC 8032 §5.1).
///
/// Five limbs of 51 bits, least significant first; every operation returns limbs carried back
/// below 2^52, so sums and differences of two results never overflow a multiplication.
/// Arithmetic is branch-free on the values; only `canonicalBytes` fully reduces.
struct Ed25519FieldElement: Sendable {
    var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64

    static let mask51: UInt64 = (1 << 51) - 1

    static let zero = Ed25519FieldElement(l0: 0, l1: 0, l2: 0, l3: 0, l4: 0)
    static let one = Ed25519FieldElement(l0: 1, l1: 0, l2: 0, l3: 0, l4: 0)

    init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64) {
        self.l0 = l0; self.l1 = l1; self.l2 = l2; self.l3 = l3; self.l4 = l4
    }

    /// A small integer.
    init(_ value: UInt64) {
        self = Ed25519FieldElement(l0: value & Self.mask51, l1: value >> 51, l2: 0, l3: 0, l4: 0)
    }

    /// The element whose little-endian encoding is `bytes` (exactly 32), the top bit ignored
    /// (RFC 8032 §5.1.3 step 1). Values in [p, 2^255) are accepted here and reduced; callers that
    /// must refuse them check `isCanonicalEncoding` first.
    init(littleEndian bytes: ArraySlice<UInt8>) {
        func word(_ at: Int) -> UInt64 {
            var w: UInt64 = 0
            for i in (0..<8).reversed() { w = w << 8 | UInt64(bytes[bytes.startIndex + at + i]) }
            return w
        }
        let w0 = word(0), w1 = word(8), w2 = word(16), w3 = word(24)
        l0 = w0 & Self.mask51
        l1 = (w0 >> 51 | w1 << 13) & Self.mask51
        l2 = (w1 >> 38 | w2 << 26) & Self.mask51
        l3 = (w2 >> 25 | w3 << 39) & Self.mask51
        l4 = (w3 >> 12) & Self.mask51
    }

    /// Whether the 32 bytes, top bit cleared, encode a number below p = 2^255 - 19.
    static func isCanonicalEncoding(_ bytes: ArraySlice<UInt8>) -> Bool {
        let b = Array(bytes)
        guard b.count == 32 else { return false }
        // Only 2^255-19 ... 2^255-1 are non-canonical: 0xed...0xff, thirty 0xff, then 0x7f.
        if b[31] & 0x7f != 0x7f { return true }
        for i in 1...30 where b[i] != 0xff { return true }
        return b[0] < 0xed
    }

    /// Carries each limb into the next, folding the top carry back times 19.
    @inline(__always)
    func carried() -> Ed25519FieldElement {
        var r = self
        let c0 = r.l0 >> 51; r.l0 &= Self.mask51; r.l1 &+= c0
        let c1 = r.l1 >> 51; r.l1 &= Self.mask51; r.l2 &+= c1
        let c2 = r.l2 >> 51; r.l2 &= Self.mask51; r.l3 &+= c2
        let c3 = r.l3 >> 51; r.l3 &= Self.mask51; r.l4 &+= c3
        let c4 = r.l4 >> 51; r.l4 &= Self.mask51; r.l0 &+= c4 &* 19
        return r
    }

    static func + (a: Ed25519FieldElement, b: Ed25519FieldElement) -> Ed25519FieldElement {
        Ed25519FieldElement(l0: a.l0 &+ b.l0, l1: a.l1 &+ b.l1, l2: a.l2 &+ b.l2, l3: a.l3 &+ b.l3, l4: a.l4 &+ b.l4).carried()
    }

    /// a - b computed as a + 4p - b, so no limb goes below zero.
    static func - (a: Ed25519FieldElement, b: Ed25519FieldElement) -> Ed25519FieldElement {
        Ed25519FieldElement(l0: (a.l0 &+ 0x1F_FFFF_FFFF_FFB4) &- b.l0, l1: (a.l1 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l1,
                            l2: (a.l2 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l2, l3: (a.l3 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l3,
                            l4: (a.l4 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l4).carried()
    }

    static prefix func - (a: Ed25519FieldElement) -> Ed25519FieldElement { zero - a }

    static func * (a: Ed25519FieldElement, b: Ed25519FieldElement) -> Ed25519FieldElement {
        @inline(__always) func m(_ x: UInt64, _ y: UInt64) -> UInt128 { UInt128(x) &* UInt128(y) }
        // 2^255 = 19 (mod p): products that land at limb 5 and above fold back times 19.
        let b1_19 = b.l1 &* 19, b2_19 = b.l2 &* 19, b3_19 = b.l3 &* 19, b4_19 = b.l4 &* 19
        let r0 = m(a.l0, b.l0) &+ m(a.l1, b4_19) &+ m(a.l2, b3_19) &+ m(a.l3, b2_19) &+ m(a.l4, b1_19)
        var r1 = m(a.l0, b.l1) &+ m(a.l1, b.l0) &+ m(a.l2, b4_19) &+ m(a.l3, b3_19) &+ m(a.l4, b2_19)
        var r2 = m(a.l0, b.l2) &+ m(a.l1, b.l1) &+ m(a.l2, b.l0) &+ m(a.l3, b4_19) &+ m(a.l4, b3_19)
        var r3 = m(a.l0, b.l3) &+ m(a.l1, b.l2) &+ m(a.l2, b.l1) &+ m(a.l3, b.l0) &+ m(a.l4, b4_19)
        var r4 = m(a.l0, b.l4) &+ m(a.l1, b.l3) &+ m(a.l2, b.l2) &+ m(a.l3, b.l1) &+ m(a.l4, b.l0)
        let mask = UInt128(mask51)
        r1 &+= r0 >> 51
        let o0 = UInt64(truncatingIfNeeded: r0 & mask)
        r2 &+= r1 >> 51
        let o1 = UInt64(truncatingIfNeeded: r1 & mask)
        r3 &+= r2 >> 51
        let o2 = UInt64(truncatingIfNeeded: r2 & mask)
        r4 &+= r3 >> 51
        let o3 = UInt64(truncatingIfNeeded: r3 & mask)
        let top = r4 >> 51
        let o4 = UInt64(truncatingIfNeeded: r4 & mask)
        // top < 2^64 / 19 here: the limbs in are below 2^52, so r4 < 2^110.
        let folded = UInt128(o0) &+ top &* 19
        return Ed25519FieldElement(l0: UInt64(truncatingIfNeeded: folded & mask),
                                   l1: o1 &+ UInt64(truncatingIfNeeded: folded >> 51),
                                   l2: o2, l3: o3, l4: o4).carried()
    }

    /// self².
    var squared: Ed25519FieldElement { self * self }

    /// self raised to the exponent whose little-endian bytes are given (square-and-multiply;
    /// exponents here are public constants).
    func power(littleEndianExponent exponent: [UInt8]) -> Ed25519FieldElement {
        var result = Ed25519FieldElement.one
        for byte in exponent.reversed() {
            for bit in (0..<8).reversed() {
                result = result.squared
                if (byte >> UInt8(bit)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// p - 2: the exponent of the inverse (Fermat).
    static let pMinus2: [UInt8] = [0xeb] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
    /// (p - 5) / 8 = 2^252 - 3: the exponent of the square-root candidate (RFC 8032 §5.1.3 step 2).
    static let pMinus5Over8: [UInt8] = [0xfd] + [UInt8](repeating: 0xff, count: 30) + [0x0f]
    /// (p - 1) / 4 = 2^253 - 5: 2 raised to it is a square root of -1.
    static let pMinus1Over4: [UInt8] = [0xfb] + [UInt8](repeating: 0xff, count: 30) + [0x1f]

    /// The multiplicative inverse (zero for zero).
    var inverse: Ed25519FieldElement { power(littleEndianExponent: Self.pMinus2) }

    /// sqrt(-1) = 2^((p-1)/4) (RFC 8032 §5.1.3 step 3).
    static let sqrtMinusOne = Ed25519FieldElement(2).power(littleEndianExponent: pMinus1Over4)

    /// The curve constant d = -121665 / 121666 (RFC 8032 §5.1).
    static let d = -Ed25519FieldElement(121_665) * Ed25519FieldElement(121_666).inverse

    /// 2d, used by point addition.
    static let d2 = d + d

    /// The unique 32-byte little-endian encoding of the value reduced below p.
    var canonicalBytes: [UInt8] {
        var r = carried().carried()
        // r < 2^255 + small; add 19 and see whether that reaches 2^255: then r >= p.
        var t = Ed25519FieldElement(l0: r.l0 &+ 19, l1: r.l1, l2: r.l2, l3: r.l3, l4: r.l4)
        let c0 = t.l0 >> 51; t.l0 &= Self.mask51; t.l1 &+= c0
        let c1 = t.l1 >> 51; t.l1 &= Self.mask51; t.l2 &+= c1
        let c2 = t.l2 >> 51; t.l2 &= Self.mask51; t.l3 &+= c2
        let c3 = t.l3 >> 51; t.l3 &= Self.mask51; t.l4 &+= c3
        let reachesP = t.l4 >> 51   // 1 when r >= p
        t.l4 &= Self.mask51
        // r - p = r + 19 - 2^255: t with its 2^255 bit dropped.
        let select = 0 &- reachesP
        r.l0 = (t.l0 & select) | (r.l0 & ~select)
        r.l1 = (t.l1 & select) | (r.l1 & ~select)
        r.l2 = (t.l2 & select) | (r.l2 & ~select)
        r.l3 = (t.l3 & select) | (r.l3 & ~select)
        r.l4 = (t.l4 & select) | (r.l4 & ~select)
        let w0 = r.l0 | r.l1 << 51
        let w1 = r.l1 >> 13 | r.l2 << 38
        let w2 = r.l2 >> 26 | r.l3 << 25
        let w3 = r.l3 >> 39 | r.l4 << 12
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for w in [w0, w1, w2, w3] {
            for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: w >> (UInt64(i) * 8))) }
        }
        return out
    }

    /// Whether the reduced value is odd: the "negative" of RFC 8032 §5.1.2.
    var isNegative: Bool { canonicalBytes[0] & 1 == 1 }

    /// Whether the reduced value is zero.
    var isZero: Bool { canonicalBytes.allSatisfy { $0 == 0 } }

    /// Equality of the reduced values.
    func equals(_ other: Ed25519FieldElement) -> Bool { canonicalBytes == other.canonicalBytes }

    /// a if `choose` is 0, b if it is 1, without a branch on `choose`.
    static func select(_ a: Ed25519FieldElement, _ b: Ed25519FieldElement, choose: UInt64) -> Ed25519FieldElement {
        let m = 0 &- choose
        return Ed25519FieldElement(l0: (a.l0 & ~m) | (b.l0 & m), l1: (a.l1 & ~m) | (b.l1 & m), l2: (a.l2 & ~m) | (b.l2 & m),
                                   l3: (a.l3 & ~m) | (b.l3 & m), l4: (a.l4 & ~m) | (b.l4 & m))
    }
}
