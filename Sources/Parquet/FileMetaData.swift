/// parquet.thrift `struct FileMetaData`: the footer.
struct FileMetaData: CompactEncodable {
    var schema: [SchemaElement]
    var rowCount: Int64
    var rowGroups: [RowGroup]
    var keyValueMetadata: [ParquetKeyValue]
    var createdBy: String
    /// The number of leaf columns: one `ColumnOrder` (TYPE_ORDER) each, which makes readers trust
    /// `min_value`/`max_value`.
    var leafCount: Int

    func encode(into w: inout CompactProtocolWriter) {
        w.field(1, i32: 1)
        w.field(2, list: schema)
        w.field(3, i64: rowCount)
        w.field(4, list: rowGroups)
        if !keyValueMetadata.isEmpty { w.field(5, list: keyValueMetadata) }
        w.field(6, string: createdBy)
        w.field(7, list: Array(repeating: TypeDefinedOrder(), count: leafCount))
    }
}

/// parquet.thrift `union ColumnOrder` holding `1: TypeDefinedOrder TYPE_ORDER` (an empty struct).
struct TypeDefinedOrder: CompactEncodable {
    func encode(into w: inout CompactProtocolWriter) {
        w.field(1, struct: { _ in })
    }
}

extension ParquetKeyValue: CompactEncodable {
    /// parquet.thrift `struct KeyValue` { 1: required string key, 2: optional string value }.
    func encode(into w: inout CompactProtocolWriter) {
        w.field(1, string: key)
        w.field(2, string: value)
    }
}
