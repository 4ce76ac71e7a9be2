/// A checkpoint text that breaks C2SP tlog-checkpoint: which line, and a sentence.
public struct CheckpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the note text at fault (0 for the text as a whole).
    public var line: Int
    /// What is wrong, in a sentence.
    public var message: String

    /// An error at `line` (0 for the whole text).
    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line == 0 ? "checkpoint: \(message)" : "checkpoint line \(line): \(message)" }
}
