/// A signed note, note key or signing request refused: which rule, and a sentence.
public struct NoteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which rule was broken.
    public enum Kind: String, Sendable {
        /// A key text that is not `PRIVATE+KEY+name+hash+base64` / `name+hash+base64`.
        case malformedKey
        /// A key whose 8-hex-digit hash does not match its name and public key.
        case keyHashMismatch
        /// A key of another algorithm than Ed25519 (type byte 0x01).
        case unknownAlgorithm
        /// A note that breaks the signed-note format (control characters, no blank line before
        /// the signatures, a signature line not `— name base64`, ...).
        case malformedNote
        /// A note with no signature by the expected key.
        case notSigned
        /// A signature by the expected key that does not verify.
        case invalidSignature
        /// Text that cannot be signed (not ending in a newline, ...).
        case unsignableText
    }

    /// Which rule was broken.
    public var kind: Kind
    /// What was wrong, in a sentence (never echoing private key material).
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
