/// The enum values of parquet.thrift (apache/parquet-format src/main/thrift/parquet.thrift) that
/// this writer emits, with the numbers the file carries.
enum Format {
    /// `enum Type`: the physical type of a column.
    enum PhysicalType: Int32 {
        case boolean = 0
        case int64 = 2
        case byteArray = 6
    }

    /// `enum ConvertedType` (deprecated, written beside the logical type for older readers).
    enum ConvertedType: Int32 {
        case utf8 = 0
        case decimal = 5
        case timestampMicros = 10
    }

    /// `enum FieldRepetitionType`.
    enum Repetition: Int32 {
        case required = 0
        case optional = 1
    }

    /// `enum Encoding`.
    enum Encoding: Int32, Comparable {
        case plain = 0
        case plainDictionary = 2
        case rle = 3
        case rleDictionary = 8

        static func < (a: Encoding, b: Encoding) -> Bool { a.rawValue < b.rawValue }
    }

    /// `enum CompressionCodec`: only UNCOMPRESSED is written.
    static let uncompressed: Int32 = 0

    /// `enum PageType`.
    enum PageType: Int32 {
        case dataPage = 0
        case dictionaryPage = 2
    }
}
