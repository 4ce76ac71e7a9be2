/// A failure of the Parquet writer: what kind, a sentence, and where (column, row, file offset).
public struct ParquetError: Error, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable {
        /// The schema cannot be written (no columns, duplicate names, a decimal beyond INT64).
        case invalidSchema
        /// An option is out of range (a zero page size, a row group limit beyond 32 bits).
        case invalidOption
        /// A row does not fit the schema: wrong width, wrong value kind, null in a required column,
        /// a decimal beyond its precision, a string too long for a page.
        case invalidRow
        /// The sink refused a write; the file is incomplete.
        case sinkFailed
        /// The footer would pass the format's 32-bit length (far too many row groups).
        case tooLarge
        /// The writer was finished, or failed earlier, and takes no more calls.
        case writerClosed
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, in a sentence.
    public var message: String
    /// The column concerned, if one is.
    public var column: String?
    /// The row concerned (0-based, counting every row appended to the file), if one is.
    public var row: Int64?
    /// The file offset concerned (where a sink write began), if one is.
    public var offset: Int64?
    /// The sink's own error, for `sinkFailed`.
    public var underlying: (any Error)?

    /// An error of kind `code` saying `message`, with whatever context is known.
    public init(_ code: Code, _ message: String, column: String? = nil, row: Int64? = nil, offset: Int64? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.column = column
        self.row = row
        self.offset = offset
        self.underlying = underlying
    }

    /// One line: `row N, column 'c', offset X: message`.
    public var description: String {
        var place: [String] = []
        if let row { place.append("row \(row)") }
        if let column { place.append("column '\(column)'") }
        if let offset { place.append("offset \(offset)") }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }
}
