/// parquet.thrift `struct RowGroup` as written after its column chunks.
struct RowGroup: CompactEncodable {
    var columns: [ColumnChunk]
    var rowCount: Int64
    /// The file offset of the row group's first page.
    var fileOffset: Int64
    var ordinal: Int

    func encode(into w: inout CompactProtocolWriter) {
        let size = columns.reduce(Int64(0)) { $0 + $1.totalSize }
        w.field(1, list: columns)
        w.field(2, i64: size)
        w.field(3, i64: rowCount)
        w.field(5, i64: fileOffset)
        w.field(6, i64: size)
        if let ordinal = Int16(exactly: ordinal) { w.field(7, i16: ordinal) }
    }
}

/// parquet.thrift `struct ColumnChunk` with its `ColumnMetaData` (field 3) inline.
struct ColumnChunk: CompactEncodable {
    var type: Format.PhysicalType
    var encodings: [Format.Encoding]
    var path: [String]
    /// Values including nulls.
    var valueCount: Int64
    /// Bytes of all pages with their headers (uncompressed = compressed).
    var totalSize: Int64
    var dataPageOffset: Int64
    var dictionaryPageOffset: Int64?
    var statistics: Statistics
    var pageCounts: [PageEncodingCount]

    func encode(into w: inout CompactProtocolWriter) {
        // Written 0: no ColumnMetaData lives outside the footer (the field's documentation).
        w.field(2, i64: 0)
        w.field(3, struct: { m in
            m.field(1, i32: type.rawValue)
            m.field(2, i32List: encodings.map(\.rawValue))
            m.field(3, stringList: path)
            m.field(4, i32: Format.uncompressed)
            m.field(5, i64: valueCount)
            m.field(6, i64: totalSize)
            m.field(7, i64: totalSize)
            m.field(9, i64: dataPageOffset)
            if let dictionaryPageOffset { m.field(11, i64: dictionaryPageOffset) }
            m.field(12, statistics)
            m.field(13, list: pageCounts)
        })
    }
}

/// parquet.thrift `struct PageEncodingStats` { 1: page_type, 2: encoding, 3: count }.
struct PageEncodingCount: CompactEncodable {
    var pageType: Format.PageType
    var encoding: Format.Encoding
    var count: Int32

    func encode(into w: inout CompactProtocolWriter) {
        w.field(1, i32: pageType.rawValue)
        w.field(2, i32: encoding.rawValue)
        w.field(3, i32: count)
    }
}
