/// A user index that cannot be built.
public struct UserIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { "user index: \(message)" }
}

/// A completeness proof that does not hold: a sentence naming the check.
public struct UserIndexProofError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What does not hold, in a sentence.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { "user index: \(message)" }
}
