import Parquet

/// A value compared byte for byte (Swift's `String ==` treats canonically equivalent spellings
/// as equal; a file must keep the exact bytes).
enum Cell: Equatable, CustomStringConvertible {
    case null
    case bytes([UInt8])
    case int(Int64)
    case bool(Bool)

    init(_ value: ParquetValue) {
        switch value {
        case .null: self = .null
        case .string(let s): self = .bytes(Array(s.utf8))
        case .int64(let v): self = .int(v)
        case .bool(let b): self = .bool(b)
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bytes(let b): "\"\(String(decoding: b, as: UTF8.self))\""
        case .int(let v): "\(v)"
        case .bool(let b): "\(b)"
        }
    }
}

extension Array where Element == ParquetValue {
    var cells: [Cell] { map(Cell.init) }
}
