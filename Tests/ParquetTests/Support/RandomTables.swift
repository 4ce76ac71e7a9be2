import Parquet

/// Seeded random schemas, options and rows for the fuzz and property tests.
struct RandomTables {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// 1...8 columns of every type, nullable or not, dictionary or not.
    mutating func schema() -> ParquetSchema {
        let count = 1 + below(8)
        var columns: [ParquetColumn] = []
        for i in 0..<count {
            let type: ParquetColumnType
            switch below(5) {
            case 0: type = .string
            case 1: type = .int64
            case 2: type = .boolean
            case 3: type = .timestampMicros
            default:
                let precision = chance(60) ? 18 : 1 + below(18)
                type = .decimal(precision: precision, scale: below(precision + 1))
            }
            columns.append(ParquetColumn("c\(i)_\(string(maxLength: 3))", type, nullable: chance(50), dictionary: type != .boolean && chance(50)))
        }
        // Column names are unique by their index prefix.
        return try! ParquetSchema(columns)
    }

    /// Small limits so that pages, row groups and dictionary fallbacks all happen on small tables.
    mutating func options() -> ParquetWriterOptions {
        var o = ParquetWriterOptions()
        o.rowGroupRowLimit = 1 + below(400)
        o.rowGroupByteLimit = 256 + below(20_000)
        o.pageRowLimit = 1 + below(100)
        o.pageByteLimit = 1 + below(2000)
        o.dictionaryEntryLimit = below(40)
        o.dictionaryByteLimit = below(600)
        o.statisticsByteLimit = 64
        return o
    }

    /// A string from a mix of ASCII, CSV-hostile characters, NUL, two- to four-byte UTF-8 and
    /// combining marks; often from a small pool so dictionaries repeat entries.
    mutating func string(maxLength: Int = 24) -> String {
        if chance(40) { return ["", "pro", "free", "a,b", "say \"hi\"", "line\nbreak", "é", "e\u{301}", "日本", "🧾"][below(10)] }
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", ",", "\"", "\r", "\n", "\u{0}", "\u{7F}", "é", "ß", "€", "日", "\u{301}", "🙂", "\u{10FFFF}"]
        var s = String.UnicodeScalarView()
        for _ in 0..<below(maxLength + 1) { s.append(alphabet[below(alphabet.count)]) }
        return String(s)
    }

    mutating func int64() -> Int64 {
        switch below(6) {
        case 0: return [Int64.min, Int64.max, 0, -1, 1][below(5)]
        case 1: return Int64(below(10)) - 5
        default: return Int64(bitPattern: random.next())
        }
    }

    /// A value that fits `column`; null about one time in five when nullable.
    mutating func value(for column: ParquetColumn) -> ParquetValue {
        if column.nullable && chance(20) { return .null }
        switch column.type {
        case .string: return .string(string())
        case .int64: return .int64(int64())
        case .boolean: return .bool(chance(50))
        case .timestampMicros: return .int64(chance(80) ? 1_700_000_000_000_000 + Int64(below(1 << 40)) - (1 << 39) : int64())
        case .decimal(let precision, _):
            var limit: Int64 = 1
            for _ in 0..<precision { limit *= 10 }
            limit -= 1
            switch below(4) {
            case 0: return .int64(chance(50) ? limit : -limit)
            case 1: return .int64((Int64(below(2_000_001)) - 1_000_000) % (limit + 1))
            default: return .int64(Int64(bitPattern: random.next()) % (limit + 1))
            }
        }
    }

    mutating func row(for schema: ParquetSchema) -> [ParquetValue] {
        schema.columns.map { value(for: $0) }
    }
}
