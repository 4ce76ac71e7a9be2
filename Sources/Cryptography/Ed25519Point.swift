/// A point of the twisted Edwards curve -x² + y² = 1 + d·x²·y² (edwards25519) in extended
/// coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z, x·y = T/Z (RFC 8032 §5.1.4).
struct Ed25519Point: Sendable {
    var x: Ed25519FieldElement
    var y: Ed25519FieldElement
    var z: Ed25519FieldElement
    var t: Ed25519FieldElement

    /// The neutral element (0, 1).
    static let identity = Ed25519Point(x: .zero, y: .one, z: .one, t: .zero)

    /// The base point B of RFC 8032 §5.1: y = 4/5, x even.
    static let base: Ed25519Point = {
        let encoding: [UInt8] = [0x58] + [UInt8](repeating: 0x66, count: 31)
        guard let point = Ed25519Point(encoding: encoding[...]) else {
            preconditionFailure("the RFC 8032 base point encoding decodes")
        }
        return point
    }()

    /// Decodes a 32-byte encoding (RFC 8032 §5.1.3), strictly: nil when the y coordinate is not
    /// below p, when no x satisfies the curve equation, or when x = 0 comes with the sign bit set.
    init?(encoding bytes: ArraySlice<UInt8>) {
        guard bytes.count == 32, Ed25519FieldElement.isCanonicalEncoding(bytes) else { return nil }
        let sign = bytes[bytes.startIndex + 31] >> 7
        let y = Ed25519FieldElement(littleEndian: bytes)
        let yy = y.squared
        let u = yy - .one
        let v = Ed25519FieldElement.d * yy + .one
        let v3 = v.squared * v
        let v7 = v3.squared * v
        var x = u * v3 * (u * v7).power(littleEndianExponent: Ed25519FieldElement.pMinus5Over8)
        let vxx = v * x.squared
        if vxx.equals(u) {
            // x is a square root of u/v.
        } else if vxx.equals(-u) {
            x = x * Ed25519FieldElement.sqrtMinusOne
        } else {
            return nil
        }
        if x.isZero && sign == 1 { return nil }
        if (x.isNegative ? 1 : 0) != sign { x = -x }
        self.init(x: x, y: y, z: .one, t: x * y)
    }

    init(x: Ed25519FieldElement, y: Ed25519FieldElement, z: Ed25519FieldElement, t: Ed25519FieldElement) {
        self.x = x; self.y = y; self.z = z; self.t = t
    }

    /// The 32-byte encoding (RFC 8032 §5.1.2): y little-endian, the top bit the parity of x.
    var encoding: [UInt8] {
        let zInverse = z.inverse
        let affineX = x * zInverse
        var bytes = (y * zInverse).canonicalBytes
        if affineX.isNegative { bytes[31] |= 0x80 }
        return bytes
    }

    /// The group law (RFC 8032 §5.1.4, complete for edwards25519: no special cases).
    static func + (p: Ed25519Point, q: Ed25519Point) -> Ed25519Point {
        let a = (p.y - p.x) * (q.y - q.x)
        let b = (p.y + p.x) * (q.y + q.x)
        let c = p.t * Ed25519FieldElement.d2 * q.t
        let zz = p.z * q.z
        let d = zz + zz
        let e = b - a, f = d - c, g = d + c, h = b + a
        return Ed25519Point(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// 2·self (RFC 8032 §5.1.4 doubling).
    var doubled: Ed25519Point {
        let a = x.squared
        let b = y.squared
        let zz = z.squared
        let c = zz + zz
        let h = a + b
        let e = h - (x + y).squared
        let g = a - b
        let f = c + g
        return Ed25519Point(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// -self.
    static prefix func - (p: Ed25519Point) -> Ed25519Point {
        Ed25519Point(x: -p.x, y: p.y, z: p.z, t: -p.t)
    }

    /// a if `choose` is 0, b if it is 1, without a branch on `choose`.
    static func select(_ a: Ed25519Point, _ b: Ed25519Point, choose: UInt64) -> Ed25519Point {
        Ed25519Point(x: .select(a.x, b.x, choose: choose), y: .select(a.y, b.y, choose: choose),
                     z: .select(a.z, b.z, choose: choose), t: .select(a.t, b.t, choose: choose))
    }

    /// [scalar]·self for a scalar given as 32 little-endian bytes (any 256-bit value).
    ///
    /// A fixed 4-bit window: the same doublings and additions whatever the scalar, and each
    /// table entry picked by scanning the whole table, so the secret scalar of signing decides no
    /// branch and no memory address.
    func multiplied(byLittleEndian scalar: [UInt8]) -> Ed25519Point {
        var table = [Ed25519Point.identity, self]
        for i in 2..<16 { table.append(table[i - 1] + self) }
        var result = Ed25519Point.identity
        for byteIndex in (0..<32).reversed() {
            let byte = byteIndex < scalar.count ? scalar[byteIndex] : 0
            for nibble in [byte >> 4, byte & 0x0f] {
                result = result.doubled.doubled.doubled.doubled
                var chosen = Ed25519Point.identity
                for (i, entry) in table.enumerated() {
                    let hit: UInt64 = UInt64(i) == UInt64(nibble) ? 1 : 0
                    chosen = .select(chosen, entry, choose: hit)
                }
                result = result + chosen
            }
        }
        return result
    }
}
