/// parquet.thrift `struct PageHeader` of an uncompressed data page (v1) or dictionary page.
struct PageHeader: CompactEncodable {
    enum Kind {
        /// `DataPageHeader` { 1: num_values, 2: encoding, 3: definition_level_encoding,
        /// 4: repetition_level_encoding }.
        case data(valueCount: Int32, encoding: Format.Encoding)
        /// `DictionaryPageHeader` { 1: num_values, 2: encoding, 3: is_sorted }.
        case dictionary(entryCount: Int32)
    }

    var kind: Kind
    /// The page's size after the header; compressed and uncompressed sizes are equal.
    var bodySize: Int32

    func encode(into w: inout CompactProtocolWriter) {
        switch kind {
        case .data(let valueCount, let encoding):
            w.field(1, i32: Format.PageType.dataPage.rawValue)
            w.field(2, i32: bodySize)
            w.field(3, i32: bodySize)
            w.field(5, struct: { d in
                d.field(1, i32: valueCount)
                d.field(2, i32: encoding.rawValue)
                d.field(3, i32: Format.Encoding.rle.rawValue)
                d.field(4, i32: Format.Encoding.rle.rawValue)
            })
        case .dictionary(let entryCount):
            w.field(1, i32: Format.PageType.dictionaryPage.rawValue)
            w.field(2, i32: bodySize)
            w.field(3, i32: bodySize)
            w.field(7, struct: { d in
                d.field(1, i32: entryCount)
                d.field(2, i32: Format.Encoding.plain.rawValue)
                d.field(3, bool: false)
            })
        }
    }
}
