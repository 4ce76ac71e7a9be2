/// Ed25519 signatures (RFC 8032 §5.1): keys from a 32-byte seed, deterministic signing, and
/// strict verification.
///
/// Verification refuses what RFC 8032 §5.1.7 and Wycheproof's vectors refuse: a signature not
/// 64 bytes long, S not below the group order L, a public key that is not the canonical
/// encoding of a curve point, and an R that is not the canonical encoding of [S]B - [k]A
/// (compared byte for byte, so a non-canonical R never matches).
public enum Ed25519 {
    /// The size of a seed (the private key), a public key and half a signature.
    public static let keySize = 32
    /// The size of a signature: R (32 bytes) then S (32 bytes).
    public static let signatureSize = 64

    /// A signing key: the 32-byte seed and what RFC 8032 §5.1.5 derives from it.
    public struct PrivateKey: Sendable {
        /// The seed, as stored in key files.
        public let seed: [UInt8]
        /// The public key of this seed.
        public let publicKey: PublicKey
        let scalar: Ed25519Scalar
        let scalarBytes: [UInt8]
        let prefix: [UInt8]

        /// The key of a 32-byte seed; nil for any other length.
        public init?(seed: [UInt8]) {
            guard seed.count == Ed25519.keySize else { return nil }
            self.init(checkedSeed: seed)
        }

        /// The key of a seed known to be 32 bytes long.
        init(checkedSeed seed: [UInt8]) {
            var h = SHA512.hash(seed)
            // Clamping (RFC 8032 §5.1.5 step 2).
            h[0] &= 248
            h[31] &= 127
            h[31] |= 64
            self.seed = seed
            scalarBytes = Array(h[0..<32])
            scalar = Ed25519Scalar(reducing: scalarBytes)
            prefix = Array(h[32..<64])
            publicKey = PublicKey(point: Ed25519Point.base.multiplied(byLittleEndian: scalarBytes))
        }

        /// A new key from 32 bytes of the operating system's randomness.
        public static func generate() throws(SecureRandom.Failure) -> PrivateKey {
            PrivateKey(checkedSeed: try SecureRandom.bytes(count: Ed25519.keySize))
        }

        /// The 64-byte signature of `message` (RFC 8032 §5.1.6).
        public func signature(for message: some Collection<UInt8>) -> [UInt8] {
            var hasher = SHA512()
            hasher.update(prefix)
            hasher.update(message)
            let r = Ed25519Scalar(reducing: hasher.finalize())
            let rEncoding = Ed25519Point.base.multiplied(byLittleEndian: r.bytes).encoding
            var challenge = SHA512()
            challenge.update(rEncoding)
            challenge.update(publicKey.bytes)
            challenge.update(message)
            let k = Ed25519Scalar(reducing: challenge.finalize())
            let s = Ed25519Scalar.multiplyAdd(k, scalar, r)
            return rEncoding + s.bytes
        }
    }

    /// A verifying key: the 32-byte encoding of a point on the curve.
    public struct PublicKey: Sendable, Equatable {
        /// The 32-byte encoding (RFC 8032 §5.1.2).
        public let bytes: [UInt8]
        let point: Ed25519Point

        /// The key whose encoding is `bytes`; nil unless that is 32 bytes that canonically
        /// encode a curve point.
        public init?(bytes: [UInt8]) {
            guard bytes.count == Ed25519.keySize, let point = Ed25519Point(encoding: bytes[...]) else { return nil }
            self.bytes = bytes
            self.point = point
        }

        /// The key of a point just computed from a seed.
        init(point: Ed25519Point) {
            self.bytes = point.encoding
            self.point = point
        }

        /// Keys are equal when their encodings are.
        public static func == (a: PublicKey, b: PublicKey) -> Bool { a.bytes == b.bytes }

        /// Whether `signature` is this key's signature of `message` (RFC 8032 §5.1.7, cofactorless:
        /// the encoding of [S]B - [k]A must equal R byte for byte).
        public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>) -> Bool {
            guard signature.count == Ed25519.signatureSize else { return false }
            let rEncoding = Array(signature[0..<32])
            let sBytes = signature[32..<64]
            guard Ed25519Scalar.isCanonical(sBytes) else { return false }
            var challenge = SHA512()
            challenge.update(rEncoding)
            challenge.update(bytes)
            challenge.update(message)
            let k = Ed25519Scalar(reducing: challenge.finalize())
            let sb = Ed25519Point.base.multiplied(byLittleEndian: Array(sBytes))
            let ka = point.multiplied(byLittleEndian: k.bytes)
            return (sb + -ka).encoding == rEncoding
        }
    }
}
