/// A table could not be read from the log: which record and why.
public struct TableError: Error, Sendable, CustomStringConvertible {
    /// The log position of the record, when one is to blame.
    public var position: UInt64?
    public var message: String

    public init(position: UInt64? = nil, _ message: String) {
        self.position = position
        self.message = message
    }

    public var description: String { position.map { "position \($0): \(message)" } ?? message }
}
