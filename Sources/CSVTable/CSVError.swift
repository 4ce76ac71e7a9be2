/// A CSV record that cannot be written: which record (0 is the header) and why.
public struct CSVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record's index; 0 is the header.
    public var record: Int
    /// What was wrong, in a sentence.
    public var message: String

    /// An error about record `record`.
    public init(record: Int, message: String) {
        self.record = record
        self.message = message
    }

    /// One line: `CSV record N: message`.
    public var description: String { "CSV record \(record): \(message)" }
}
