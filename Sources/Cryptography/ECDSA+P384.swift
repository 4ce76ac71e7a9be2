/// The NIST P-384 curve (secp384r1), for the certificate signatures of Apple's root and
/// intermediate (ecdsa-with-SHA384 under P-384 keys). Generic limb arithmetic: slower than
/// ``P256`` but only met when a chain is first verified.
public enum P384 {
    /// Bytes in a field element, a scalar, and each half of a raw `r‖s` signature.
    public static let byteCount = 48

    /// A P-384 public key, checked on construction (coordinates below p, on the curve).
    public struct PublicKey: Sendable, Equatable {
        /// Montgomery-form affine coordinates.
        let x: [UInt64], y: [UInt64]

        /// A key from its SEC 1 uncompressed form 0x04‖X‖Y (97 bytes).
        public init(uncompressedRepresentation bytes: [UInt8]) throws(ECDSAError) {
            let curve = ECDSA.WeierstrassCurve.p384
            guard bytes.count == 97 else {
                if bytes.first != 0x04 { throw .publicKeyNotUncompressed(curve: "P-384", firstByte: bytes.first) }
                throw .publicKeyLength(curve: "P-384", actual: bytes.count, expected: 97)
            }
            guard bytes[0] == 0x04 else { throw .publicKeyNotUncompressed(curve: "P-384", firstByte: bytes[0]) }
            guard let x = curve.field.canonical(bigEndian: bytes[1..<49]) else {
                throw .coordinateOutOfRange(curve: "P-384", coordinate: "x")
            }
            guard let y = curve.field.canonical(bigEndian: bytes[49..<97]) else {
                throw .coordinateOutOfRange(curve: "P-384", coordinate: "y")
            }
            let mx = curve.field.toMontgomery(x), my = curve.field.toMontgomery(y)
            guard curve.isOnCurve(x: mx, y: my) else { throw .pointNotOnCurve(curve: "P-384") }
            self.x = mx
            self.y = my
        }

        /// The SEC 1 uncompressed form 0x04‖X‖Y.
        public var uncompressedRepresentation: [UInt8] {
            let f = ECDSA.WeierstrassCurve.p384.field
            return [0x04] + f.bigEndianBytes(f.fromMontgomery(x)) + f.bigEndianBytes(f.fromMontgomery(y))
        }

        /// Checks `signature` over a message whose digest is `digest` (its leftmost 384 bits are used).
        public func verify(_ signature: ECDSA.Signature, digest: [UInt8]) throws(ECDSAError) {
            try ECDSA.WeierstrassCurve.p384.verify(signature, digest: digest, x: x, y: y)
        }

        /// Checks a DER signature over the SHA-384 of `message` (ecdsa-with-SHA384).
        public func verify(derSignature: [UInt8], message: [UInt8]) throws(ECDSAError) {
            try verify(ECDSA.Signature(derEncoded: derSignature), digest: ECDSA.SHA384.hash(message))
        }
    }
}
