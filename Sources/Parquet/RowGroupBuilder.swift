/// The row group being buffered: every column's chunk builder, and the check of each incoming
/// row against the schema. Not generic over the sink, so the per-row path is compiled once in
/// this module, specialized.
struct RowGroupBuilder {
    /// What a column accepts: `.string`, `.int64` (within ±limit for decimals), or `.bool`; `.null`
    /// when nullable.
    private struct ValueCheck {
        enum Kind { case string, int64, decimal(limit: Int64), bool }
        var kind: Kind
        var nullable: Bool
    }

    let schema: ParquetSchema
    private(set) var columns: [ColumnChunkBuilder]
    private let checks: [ValueCheck]
    /// Rows buffered in this row group.
    private(set) var rowCount = 0

    init(schema: ParquetSchema, options: ParquetWriterOptions) {
        self.schema = schema
        let limits = ColumnChunkBuilder.Limits(
            pageBytes: options.pageByteLimit, pageRows: options.pageRowLimit,
            dictionaryBytes: options.dictionaryByteLimit, dictionaryEntries: options.dictionaryEntryLimit,
            statisticsBytes: options.statisticsByteLimit)
        columns = schema.columns.map { ColumnChunkBuilder(column: $0, limits: limits) }
        checks = schema.columns.map { column in
            switch column.type {
            case .string: ValueCheck(kind: .string, nullable: column.nullable)
            case .int64, .timestampMicros: ValueCheck(kind: .int64, nullable: column.nullable)
            case .boolean: ValueCheck(kind: .bool, nullable: column.nullable)
            case .decimal(let precision, _):
                ValueCheck(kind: .decimal(limit: RowGroupBuilder.decimalLimit(precision: precision)), nullable: column.nullable)
            }
        }
    }

    /// Encoded bytes held for the row group, all columns together.
    var bufferedBytes: Int {
        var total = 0
        for column in columns { total += column.bufferedBytes }
        return total
    }

    /// Checks the whole row, then adds it; a row that does not fit adds nothing. `fileRow` is the
    /// row's index in the file, for the error.
    mutating func append(_ row: [ParquetValue], fileRow: Int64) throws(ParquetError) {
        guard row.count == columns.count else {
            throw ParquetError(.invalidRow, "the row has \(row.count) values; the schema has \(columns.count) columns", row: fileRow)
        }
        for i in row.indices { try check(row[i], column: i, fileRow: fileRow) }
        for i in row.indices {
            switch row[i] {
            case .null: columns[i].appendNull()
            case .string(let s): columns[i].append(s)
            case .int64(let v): columns[i].append(v)
            case .bool(let b): columns[i].append(b)
            }
        }
        rowCount += 1
    }

    /// Hands over column `i`'s chunk and empties it; the row count resets with the last column.
    mutating func finishChunk(_ i: Int) -> FinishedChunk {
        if i == columns.count - 1 { rowCount = 0 }
        return columns[i].finishChunk()
    }

    private func check(_ value: ParquetValue, column i: Int, fileRow: Int64) throws(ParquetError) {
        let check = checks[i]
        switch (value, check.kind) {
        case (.null, _):
            if check.nullable { return }
            throw invalid("null in a required column", column: i, fileRow: fileRow)
        case (.string(let s), .string):
            if s.utf8.count <= ParquetValue.maxStringBytes { return }
            throw invalid("a string of \(s.utf8.count) UTF-8 bytes; at most \(ParquetValue.maxStringBytes) are taken", column: i, fileRow: fileRow)
        case (.int64, .int64), (.bool, .bool):
            return
        case (.int64(let v), .decimal(let limit)):
            if v >= -limit && v <= limit { return }
            throw invalid("unscaled decimal \(v) is beyond the column's precision (±\(limit))", column: i, fileRow: fileRow)
        default:
            throw invalid("a \(value.kindName) value in a \(schema.columns[i].type.name) column", column: i, fileRow: fileRow)
        }
    }

    private func invalid(_ message: String, column i: Int, fileRow: Int64) -> ParquetError {
        ParquetError(.invalidRow, message, column: schema.columns[i].name, row: fileRow)
    }

    /// 10^precision − 1, the largest unscaled value of a decimal of `precision` digits (≤ 18).
    static func decimalLimit(precision: Int) -> Int64 {
        var p: Int64 = 1
        for _ in 0..<precision { p *= 10 }
        return p - 1
    }
}
