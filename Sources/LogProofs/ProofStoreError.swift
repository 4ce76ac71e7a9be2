/// Why the proof files beside a log could not answer: a checkpoint that is not of this log, a
/// size beyond its head, a derived file that could not be read or written. One line.
public struct ProofStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the file or checkpoint concerned.
    public var message: String

    /// A failure saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
