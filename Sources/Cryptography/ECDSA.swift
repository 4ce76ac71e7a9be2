/// ECDSA signature verification (SEC 1 §4.1.4) on the NIST curves Apple's certificate chains use:
/// P-256 (the JWS and leaf keys, fast path in ``P256``) and P-384 (Apple's root and intermediate
/// keys, in ``P384``). Verification only: this module holds no signing code.
public enum ECDSA {
    /// The message digest an `ecdsa-with-SHA…` algorithm names.
    public enum HashFunction: Sendable, Equatable, CustomStringConvertible {
        case sha256
        case sha384

        /// The digest of `message`.
        public func digest(_ message: [UInt8]) -> [UInt8] {
            switch self {
            case .sha256: SHA256.hash(message).bytes
            case .sha384: SHA384.hash(message)
            }
        }

        public var description: String {
            switch self {
            case .sha256: "SHA-256"
            case .sha384: "SHA-384"
            }
        }
    }

    /// A public key on one of the supported curves.
    public enum PublicKey: Sendable, Equatable, CustomStringConvertible {
        case p256(P256.PublicKey)
        case p384(P384.PublicKey)

        /// The curve's name, "P-256" or "P-384".
        public var curveName: String {
            switch self {
            case .p256: "P-256"
            case .p384: "P-384"
            }
        }

        /// Checks `signature` over a message whose digest is `digest`; throws naming the failed check.
        public func verify(_ signature: Signature, digest: [UInt8]) throws(ECDSAError) {
            switch self {
            case .p256(let key): try key.verify(signature, digest: digest)
            case .p384(let key): try key.verify(signature, digest: digest)
            }
        }

        /// Checks `signature` over `message` hashed by `hash`.
        public func verify(_ signature: Signature, message: [UInt8], hash: HashFunction) throws(ECDSAError) {
            try verify(signature, digest: hash.digest(message))
        }

        public var description: String { "\(curveName) public key" }
    }
}
