/// Proof JSON that cannot be read: where (byte offset or field path) and a sentence.
public struct ProofFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset in the input, when the JSON itself is malformed.
    public var offset: Int?
    /// The field path, e.g. `records[3].inclusion[2]`, when the JSON is well-formed but the
    /// document is not.
    public var field: String?
    /// What is wrong, in a sentence.
    public var message: String

    /// An error at a byte offset or a field path.
    public init(offset: Int? = nil, field: String? = nil, _ message: String) {
        self.offset = offset
        self.field = field
        self.message = message
    }

    public var description: String {
        if let field { return "proof JSON field \(field): \(message)" }
        if let offset { return "proof JSON at byte \(offset): \(message)" }
        return "proof JSON: \(message)"
    }
}
