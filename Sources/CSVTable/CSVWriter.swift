/// An RFC 4180 CSV writer: a header row, then rows of the same width. A field is quoted when it
/// holds a quote, a comma, CR or LF (quotes doubled inside); records end with CRLF. A nil field
/// (SQL NULL) is written empty and unquoted, an empty string as `""`, so readers that tell them
/// apart (PostgreSQL's COPY, DuckDB with its defaults) can.
///
/// The writer keeps the encoded bytes until `takeBytes()`; call it every few thousand rows and
/// hand them to a file, so memory stays bounded.
public struct CSVWriter: Sendable {
    /// The number of fields in every record.
    public let width: Int
    /// Records written, the header included.
    public private(set) var recordCount = 0
    private var buffer: [UInt8] = []

    /// Writes the header row; `header` must not be empty.
    public init(header: [String]) throws(CSVError) {
        guard !header.isEmpty else { throw CSVError(record: 0, message: "a CSV table needs at least one column") }
        width = header.count
        try append(row: header.map { Optional($0) })
    }

    /// Appends one record of `width` fields.
    public mutating func append(row: [String?]) throws(CSVError) {
        guard row.count == width else {
            throw CSVError(record: recordCount, message: "the record has \(row.count) fields; the header has \(width)")
        }
        for (i, field) in row.enumerated() {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            if let field { appendField(field) }
        }
        buffer.append(UInt8(ascii: "\r"))
        buffer.append(UInt8(ascii: "\n"))
        recordCount += 1
    }

    /// Bytes encoded and not yet taken.
    public var pendingByteCount: Int { buffer.count }

    /// Hands over the bytes encoded since the last call.
    public mutating func takeBytes() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    private mutating func appendField(_ field: String) {
        let utf8 = field.utf8
        let needsQuotes = field.isEmpty || utf8.contains { $0 == 0x22 || $0 == 0x2C || $0 == 0x0D || $0 == 0x0A }
        guard needsQuotes else {
            buffer.append(contentsOf: utf8)
            return
        }
        buffer.append(0x22)
        for byte in utf8 {
            if byte == 0x22 { buffer.append(0x22) }
            buffer.append(byte)
        }
        buffer.append(0x22)
    }
}
