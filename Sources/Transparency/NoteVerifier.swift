import Cryptography

/// A signed-note verifier key (C2SP signed-note; Go's golang.org/x/mod/sumdb/note): a key name,
/// its 32-bit key hash and an Ed25519 public key, written `<name>+<hash8hex>+<base64(0x01||pub)>`.
public struct NoteVerifier: Sendable, Equatable {
    /// The key name (non-empty, no Unicode spaces, no '+').
    public let name: String
    /// The key hash: the first four bytes, big-endian, of SHA-256(name || "\n" || 0x01 || pub).
    public let keyHash: UInt32
    /// The Ed25519 public key.
    public let publicKey: Ed25519.PublicKey

    /// The signature type byte of Ed25519 keys.
    public static let ed25519Type: UInt8 = 0x01

    /// The verifier of `publicKey` under `name`.
    public init(name: String, publicKey: Ed25519.PublicKey) throws(NoteError) {
        guard Self.isValidKeyName(name) else {
            throw NoteError(.malformedKey, "key name \(quoted(name)) must be non-empty, without spaces or '+'")
        }
        self.name = name
        self.publicKey = publicKey
        keyHash = Self.keyHash(name: name, publicKey: publicKey)
    }

    /// Parses a verifier key text, strictly as Go's note.NewVerifier does, and also refuses a
    /// public key that is not a canonical curve point.
    public init(keyText: String) throws(NoteError) {
        guard !keyText.hasPrefix("PRIVATE+KEY+") else {
            throw NoteError(.malformedKey, "this is a signing (private) key, not a verifier key: give the .pub file keygen wrote beside it")
        }
        let parts = keyText.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw NoteError(.malformedKey, "verifier key \(quoted(keyText)) is not name+hash+base64")
        }
        let name = String(parts[0])
        guard Self.isValidKeyName(name) else {
            throw NoteError(.malformedKey, "verifier key name \(quoted(name)) must be non-empty, without spaces or '+'")
        }
        guard let hash = Self.parseKeyHash(parts[1]) else {
            throw NoteError(.malformedKey, "verifier key hash \(quoted(String(parts[1]))) is not 8 hex digits")
        }
        guard let key = Base64.decode(parts[2]), let type = key.first else {
            throw NoteError(.malformedKey, "verifier key material \(quoted(String(parts[2]))) is not non-empty base64")
        }
        guard type == Self.ed25519Type else {
            throw NoteError(.unknownAlgorithm, "verifier key type \(type) is not Ed25519 (1)")
        }
        guard key.count == 33, let publicKey = Ed25519.PublicKey(bytes: Array(key[1...])) else {
            throw NoteError(.malformedKey, "verifier key for \(name) does not hold a valid 32-byte Ed25519 public key")
        }
        try self.init(name: name, publicKey: publicKey)
        guard keyHash == hash else {
            throw NoteError(.keyHashMismatch, "verifier key hash \(String(parts[1])) does not match name \(name) and its public key (\(Self.hex8(keyHash)))")
        }
    }

    /// The verifier key text `<name>+<hash8hex>+<base64(0x01||pub)>`.
    public var keyText: String {
        "\(name)+\(Self.hex8(keyHash))+\(Base64.encode([Self.ed25519Type] + publicKey.bytes))"
    }

    /// Whether `signature` (64 bytes, without the key hash) signs `text`.
    public func verifies(_ signature: [UInt8], of text: [UInt8]) -> Bool {
        publicKey.isValidSignature(signature, for: text)
    }

    /// SHA-256(name || "\n" || 0x01 || pub), first four bytes big-endian.
    public static func keyHash(name: String, publicKey: Ed25519.PublicKey) -> UInt32 {
        var bytes = Array(name.utf8)
        bytes.append(0x0a)
        bytes.append(ed25519Type)
        bytes.append(contentsOf: publicKey.bytes)
        let digest = SHA256.hash(bytes).bytes
        return UInt32(digest[0]) << 24 | UInt32(digest[1]) << 16 | UInt32(digest[2]) << 8 | UInt32(digest[3])
    }

    /// C2SP's key-name rule: non-empty, no Unicode white space, no '+'.
    public static func isValidKeyName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0.properties.isWhitespace || $0 == "+" }
    }

    /// Eight hex digits (either case, as Go's ParseUint accepts) to a key hash.
    static func parseKeyHash(_ text: some StringProtocol) -> UInt32? {
        let digits = Array(text.utf8)
        guard digits.count == 8 else { return nil }
        var value: UInt32 = 0
        for c in digits {
            let v: UInt32
            switch c {
            case 0x30...0x39: v = UInt32(c - 0x30)
            case 0x61...0x66: v = UInt32(c - 0x61 + 10)
            case 0x41...0x46: v = UInt32(c - 0x41 + 10)
            default: return nil
            }
            value = value << 4 | v
        }
        return value
    }

    /// Eight lower-case hex digits.
    static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
