/// The NIST P-256 curve (secp256r1, prime256v1): y² = x³ − 3x + b over GF(p), of prime order n.
///
/// Verification only, variable time (every input is public): field and scalar arithmetic in
/// Montgomery form on four 64-bit limbs, points in Jacobian coordinates, `u1·G` from a precomputed
/// table of multiples of the generator and `u2·Q` by a width-5 NAF.
public enum P256 {
    /// Bytes in a field element, a scalar, and each half of a raw `r‖s` signature.
    public static let byteCount = 32

    /// The curve's order n, big-endian.
    public static var orderBytes: [UInt8] { Scalar.modulus.bigEndianBytes }

    /// The field's prime p, big-endian.
    public static var primeBytes: [UInt8] { FieldElement.modulus.bigEndianBytes }

    /// The curve's constant b (canonical, not Montgomery form).
    static let b = Limbs(0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7)

    /// The generator G (canonical coordinates).
    static let gx = Limbs(0xf4a13945d898c296, 0x77037d812deb33a0, 0xf8bce6e563a440f2, 0x6b17d1f2e12c4247)
    static let gy = Limbs(0xcbb6406837bf51f5, 0x2bce33576b315ece, 0x8ee7eb4a7c0f9e16, 0x4fe342e2fe1a7f9b)

    /// The generator as an affine point.
    static var generator: AffinePoint {
        AffinePoint(x: FieldElement(montgomeryOf: gx), y: FieldElement(montgomeryOf: gy))
    }
}
