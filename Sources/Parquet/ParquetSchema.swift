/// The flat schema of one table: one or more uniquely named columns, in file order.
public struct ParquetSchema: Sendable, Equatable {
    /// The columns, in file order.
    public let columns: [ParquetColumn]

    /// Checks the columns: at least one, names non-empty and unique, decimals of precision 1...18
    /// and scale 0...precision, no dictionary on a boolean column.
    public init(_ columns: [ParquetColumn]) throws(ParquetError) {
        guard !columns.isEmpty else { throw ParquetError(.invalidSchema, "a schema needs at least one column") }
        var seen = Set<String>()
        for (index, column) in columns.enumerated() {
            guard !column.name.isEmpty else {
                throw ParquetError(.invalidSchema, "column \(index) has an empty name")
            }
            guard seen.insert(column.name).inserted else {
                throw ParquetError(.invalidSchema, "two columns are named '\(column.name)'", column: column.name)
            }
            if case .decimal(let precision, let scale) = column.type {
                guard (1...18).contains(precision), (0...precision).contains(scale) else {
                    throw ParquetError(.invalidSchema, "decimal(\(precision), \(scale)) does not fit INT64: precision must be 1...18 and scale 0...precision", column: column.name)
                }
            }
            if column.type == .boolean && column.dictionary {
                throw ParquetError(.invalidSchema, "dictionary encoding is not offered for boolean columns (bit-packed PLAIN is smaller)", column: column.name)
            }
        }
        self.columns = columns
    }

    /// The footer's schema list: the root group, then one leaf per column.
    var elements: [SchemaElement] {
        var elements = [SchemaElement(name: "schema", childCount: Int32(columns.count))]
        for column in columns {
            var e = SchemaElement(name: column.name)
            e.repetition = column.nullable ? .optional : .required
            switch column.type {
            case .string:
                e.type = .byteArray
                e.convertedType = .utf8
                e.logicalType = .string
            case .int64:
                e.type = .int64
            case .boolean:
                e.type = .boolean
            case .timestampMicros:
                e.type = .int64
                e.convertedType = .timestampMicros
                e.logicalType = .timestampMicros(adjustedToUTC: true)
            case .decimal(let precision, let scale):
                e.type = .int64
                e.convertedType = .decimal
                e.scale = Int32(scale)
                e.precision = Int32(precision)
                e.logicalType = .decimal(scale: Int32(scale), precision: Int32(precision))
            }
            elements.append(e)
        }
        return elements
    }
}
