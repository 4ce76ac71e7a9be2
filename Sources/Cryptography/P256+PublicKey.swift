extension P256 {
    /// A P-256 public key: a point on the curve, checked on construction (coordinates below p,
    /// on the curve; the SEC 1 uncompressed form cannot express the point at infinity).
    public struct PublicKey: Sendable, Equatable {
        let point: AffinePoint

        /// A key from its SEC 1 uncompressed form 0x04‖X‖Y (65 bytes).
        public init(uncompressedRepresentation bytes: [UInt8]) throws(ECDSAError) {
            guard bytes.count == 65 else {
                if bytes.first != 0x04 { throw .publicKeyNotUncompressed(curve: "P-256", firstByte: bytes.first) }
                throw .publicKeyLength(curve: "P-256", actual: bytes.count, expected: 65)
            }
            guard bytes[0] == 0x04 else { throw .publicKeyNotUncompressed(curve: "P-256", firstByte: bytes[0]) }
            guard let x = FieldElement(canonical: Limbs(bigEndian: bytes, offset: 1)) else {
                throw .coordinateOutOfRange(curve: "P-256", coordinate: "x")
            }
            guard let y = FieldElement(canonical: Limbs(bigEndian: bytes, offset: 33)) else {
                throw .coordinateOutOfRange(curve: "P-256", coordinate: "y")
            }
            let point = AffinePoint(x: x, y: y)
            guard point.isOnCurve else { throw .pointNotOnCurve(curve: "P-256") }
            self.point = point
        }

        /// The SEC 1 uncompressed form 0x04‖X‖Y.
        public var uncompressedRepresentation: [UInt8] {
            [0x04] + point.x.canonical.bigEndianBytes + point.y.canonical.bigEndianBytes
        }

        /// Checks `signature` over a message whose digest is `digest` (its leftmost 256 bits are used).
        public func verify(_ signature: ECDSA.Signature, digest: [UInt8]) throws(ECDSAError) {
            let r = try Self.component(signature.r, "r")
            let s = try Self.component(signature.s, "s")
            guard P256.verify(r: r, s: s, digest: digest, publicKey: point) else {
                throw .signatureMismatch(curve: "P-256")
            }
        }

        /// Checks a raw r‖s signature (exactly 64 bytes, the JWS ES256 form) over the SHA-256 of `message`.
        public func verify(rawSignature: [UInt8], message: [UInt8]) throws(ECDSAError) {
            try verify(rawSignature: rawSignature, digest: SHA256.hash(message).bytes)
        }

        /// Checks a raw r‖s signature (exactly 64 bytes) over a message whose digest is `digest`.
        public func verify(rawSignature: [UInt8], digest: [UInt8]) throws(ECDSAError) {
            guard rawSignature.count == 64 else {
                throw .signatureLength(curve: "P-256", actual: rawSignature.count, expected: 64)
            }
            try verify(ECDSA.Signature(rawRS: rawSignature), digest: digest)
        }

        /// Checks a DER signature (ecdsa-with-SHA256, as in X.509) over the SHA-256 of `message`.
        public func verify(derSignature: [UInt8], message: [UInt8]) throws(ECDSAError) {
            try verify(ECDSA.Signature(derEncoded: derSignature), digest: SHA256.hash(message).bytes)
        }

        /// Whether a raw r‖s signature verifies over the SHA-256 of `message`.
        public func isValidSignature(rawSignature: [UInt8], message: [UInt8]) -> Bool {
            do { try verify(rawSignature: rawSignature, message: message); return true } catch { return false }
        }

        /// A magnitude as a scalar in 1…n−1.
        private static func component(_ magnitude: [UInt8], _ name: String) throws(ECDSAError) -> Limbs {
            guard !magnitude.isEmpty else { throw .componentOutOfRange(curve: "P-256", component: name, reason: "zero") }
            guard magnitude.count <= 32 else {
                throw .componentOutOfRange(curve: "P-256", component: name, reason: "not below the group order n")
            }
            var padded = [UInt8](repeating: 0, count: 32 - magnitude.count)
            padded.append(contentsOf: magnitude)
            let value = Limbs(bigEndian: padded, offset: 0)
            guard value.isLess(than: Scalar.modulus) else {
                throw .componentOutOfRange(curve: "P-256", component: name, reason: "not below the group order n")
            }
            return value
        }
    }
}
