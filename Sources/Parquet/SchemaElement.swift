/// parquet.thrift `struct SchemaElement`: the root group or one leaf column.
struct SchemaElement: CompactEncodable {
    var type: Format.PhysicalType?
    var repetition: Format.Repetition?
    var name: String
    var childCount: Int32?
    var convertedType: Format.ConvertedType?
    var scale: Int32?
    var precision: Int32?
    var logicalType: LogicalType?

    func encode(into w: inout CompactProtocolWriter) {
        if let type { w.field(1, i32: type.rawValue) }
        if let repetition { w.field(3, i32: repetition.rawValue) }
        w.field(4, string: name)
        if let childCount { w.field(5, i32: childCount) }
        if let convertedType { w.field(6, i32: convertedType.rawValue) }
        if let scale { w.field(7, i32: scale) }
        if let precision { w.field(8, i32: precision) }
        if let logicalType { w.field(10, logicalType) }
    }
}

/// parquet.thrift `union LogicalType`, the members this writer uses.
enum LogicalType: CompactEncodable {
    /// `1: StringType STRING` (an empty struct).
    case string
    /// `5: DecimalType DECIMAL` { 1: i32 scale, 2: i32 precision }.
    case decimal(scale: Int32, precision: Int32)
    /// `8: TimestampType TIMESTAMP` { 1: bool isAdjustedToUTC, 2: TimeUnit unit } with
    /// `union TimeUnit { 2: MicroSeconds MICROS }`.
    case timestampMicros(adjustedToUTC: Bool)

    func encode(into w: inout CompactProtocolWriter) {
        switch self {
        case .string:
            w.field(1, struct: { _ in })
        case .decimal(let scale, let precision):
            w.field(5, struct: { d in
                d.field(1, i32: scale)
                d.field(2, i32: precision)
            })
        case .timestampMicros(let adjustedToUTC):
            w.field(8, struct: { t in
                t.field(1, bool: adjustedToUTC)
                t.field(2, struct: { unit in unit.field(2, struct: { _ in }) })
            })
        }
    }
}
