import Cryptography

/// A signed-note signer: an Ed25519 private key under a key name, written
/// `PRIVATE+KEY+<name>+<hash8hex>+<base64(0x01||seed)>` as Go's note.GenerateKey does.
public struct NoteSigner: Sendable {
    /// The private key.
    public let privateKey: Ed25519.PrivateKey
    /// The matching verifier (name, key hash, public key).
    public let verifier: NoteVerifier

    /// The key name.
    public var name: String { verifier.name }
    /// The key hash.
    public var keyHash: UInt32 { verifier.keyHash }

    /// The signer of `privateKey` under `name`.
    public init(name: String, privateKey: Ed25519.PrivateKey) throws(NoteError) {
        self.privateKey = privateKey
        verifier = try NoteVerifier(name: name, publicKey: privateKey.publicKey)
    }

    /// A new key under `name`, from the operating system's randomness.
    public static func generate(name: String) throws -> NoteSigner {
        try NoteSigner(name: name, privateKey: Ed25519.PrivateKey.generate())
    }

    /// Parses a private key text, strictly as Go's note.NewSigner does: the hash must match the
    /// name and the public key derived from the seed.
    public init(keyText: String) throws(NoteError) {
        let parts = keyText.split(separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "PRIVATE", parts[1] == "KEY" else {
            throw NoteError(.malformedKey, "private key text is not PRIVATE+KEY+name+hash+base64")
        }
        let name = String(parts[2])
        guard NoteVerifier.isValidKeyName(name) else {
            throw NoteError(.malformedKey, "private key name \(quoted(name)) must be non-empty, without spaces or '+'")
        }
        guard let hash = NoteVerifier.parseKeyHash(parts[3]) else {
            throw NoteError(.malformedKey, "private key hash \(quoted(String(parts[3]))) is not 8 hex digits")
        }
        // The key material is secret: never echoed in errors.
        guard let key = Base64.decode(parts[4]), let type = key.first else {
            throw NoteError(.malformedKey, "private key material for \(name) is not non-empty base64")
        }
        guard type == NoteVerifier.ed25519Type else {
            throw NoteError(.unknownAlgorithm, "private key type \(type) is not Ed25519 (1)")
        }
        guard key.count == 33, let privateKey = Ed25519.PrivateKey(seed: Array(key[1...])) else {
            throw NoteError(.malformedKey, "private key for \(name) does not hold a 32-byte Ed25519 seed")
        }
        try self.init(name: name, privateKey: privateKey)
        guard keyHash == hash else {
            throw NoteError(.keyHashMismatch, "private key hash \(String(parts[3])) does not match name \(name) and its public key (\(NoteVerifier.hex8(keyHash)))")
        }
    }

    /// The private key text `PRIVATE+KEY+<name>+<hash8hex>+<base64(0x01||seed)>`.
    public var keyText: String {
        "PRIVATE+KEY+\(name)+\(NoteVerifier.hex8(keyHash))+\(Base64.encode([NoteVerifier.ed25519Type] + privateKey.seed))"
    }

    /// The verifier key text of this signer.
    public var verifierKeyText: String { verifier.keyText }

    /// The 64-byte Ed25519 signature of `text`.
    public func signature(of text: [UInt8]) -> [UInt8] { privateKey.signature(for: text) }
}
