/// Why a JSON line is not a valid event: one sentence naming the field, and the byte column.
public struct EventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    /// 1-based byte column where the problem was seen, when it is about the JSON text.
    public var column: Int?
    public init(_ reason: String, column: Int? = nil) {
        self.reason = reason
        self.column = column
    }
    public var description: String { column.map { "\(reason) (column \($0))" } ?? reason }
}
