/// Integers modulo L = 2^252 + 27742317777372353535851937790883648493, the order of Ed25519's
/// base point (RFC 8032 §5.1): reduction of 512-bit hashes and S = (r + k·s) mod L.
///
/// Values are four 64-bit limbs, least significant first. Reduction is binary long division,
/// one bit at a time with a masked subtraction: slow next to the curve work, and branch-free.
struct Ed25519Scalar: Sendable, Equatable {
    var limbs: [UInt64]

    /// L's limbs, least significant first.
    static let order: [UInt64] = [0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0, 0x1000_0000_0000_0000]

    /// L as 32 little-endian bytes.
    static let orderBytes: [UInt8] = littleEndianBytes(order)

    init(limbs: [UInt64]) { self.limbs = limbs }

    /// The value of `bytes` (little-endian, any length up to 64) reduced mod L.
    init(reducing bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        var wide = [UInt64](repeating: 0, count: 8)
        for (i, byte) in array.prefix(64).enumerated() { wide[i / 8] |= UInt64(byte) << (UInt64(i % 8) * 8) }
        limbs = Self.reduce(wide)
    }

    /// Whether 32 little-endian bytes encode a number below L: RFC 8032 §5.1.7's check on S.
    static func isCanonical(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 32 else { return false }
        let b = Array(bytes)
        for i in (0..<32).reversed() where b[i] != orderBytes[i] { return b[i] < orderBytes[i] }
        return false
    }

    /// The 32 little-endian bytes.
    var bytes: [UInt8] { Self.littleEndianBytes(limbs) }

    /// (a·b + c) mod L.
    static func multiplyAdd(_ a: Ed25519Scalar, _ b: Ed25519Scalar, _ c: Ed25519Scalar) -> Ed25519Scalar {
        var wide = [UInt64](repeating: 0, count: 8)
        for i in 0..<4 {
            var carry: UInt64 = 0
            for j in 0..<4 {
                let (high, low) = a.limbs[i].multipliedFullWidth(by: b.limbs[j])
                let (s1, o1) = wide[i + j].addingReportingOverflow(low)
                let (s2, o2) = s1.addingReportingOverflow(carry)
                wide[i + j] = s2
                carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            wide[i + 4] = carry
        }
        var carry: UInt64 = 0
        for i in 0..<8 {
            let (s1, o1) = wide[i].addingReportingOverflow(i < 4 ? c.limbs[i] : 0)
            let (s2, o2) = s1.addingReportingOverflow(carry)
            wide[i] = s2
            carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
        }
        // a, b, c < 2^255 each here, so a·b + c < 2^510: no carry out of the top limb.
        return Ed25519Scalar(limbs: reduce(wide))
    }

    /// A 512-bit value (eight limbs) mod L, by shifting its bits in from the top and subtracting
    /// L whenever the remainder reaches it. The remainder stays below L < 2^253, so twice it
    /// plus one fits four limbs.
    static func reduce(_ wide: [UInt64]) -> [UInt64] {
        var r: [UInt64] = [0, 0, 0, 0]
        for bitIndex in (0..<512).reversed() {
            let bit = (wide[bitIndex / 64] >> UInt64(bitIndex % 64)) & 1
            r[3] = r[3] << 1 | r[2] >> 63
            r[2] = r[2] << 1 | r[1] >> 63
            r[1] = r[1] << 1 | r[0] >> 63
            r[0] = r[0] << 1 | bit
            var difference: [UInt64] = [0, 0, 0, 0]
            var borrow: UInt64 = 0
            for i in 0..<4 {
                let (d1, b1) = r[i].subtractingReportingOverflow(order[i])
                let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                difference[i] = d2
                borrow = (b1 ? 1 : 0) | (b2 ? 1 : 0)
            }
            // Keep the difference when there was no borrow (r >= L).
            let keep = borrow &- 1
            for i in 0..<4 { r[i] = (difference[i] & keep) | (r[i] & ~keep) }
        }
        return r
    }

    static func littleEndianBytes(_ limbs: [UInt64]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(limbs.count * 8)
        for limb in limbs {
            for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: limb >> (UInt64(i) * 8))) }
        }
        return out
    }
}
