import Parquet

/// A table with every column type, nullable and not, plain and dictionary-encoded, and the
/// values readers get wrong first: Int64 extremes, decimals at ±(10^18 − 1) micro-units, times
/// before 1970, strings with quotes, commas, CR/LF, non-ASCII and both spellings of "é".
enum Catalog {
    static let schema = try! ParquetSchema([
        ParquetColumn("id", .string),
        ParquetColumn("note", .string, nullable: true),
        ParquetColumn("plan", .string, nullable: true, dictionary: true),
        ParquetColumn("n", .int64),
        ParquetColumn("big", .int64, nullable: true, dictionary: true),
        ParquetColumn("flag", .boolean, nullable: true),
        ParquetColumn("at", .timestampMicros),
        ParquetColumn("at_dict", .timestampMicros, nullable: true, dictionary: true),
        ParquetColumn("money", .decimal18x6, nullable: true),
        ParquetColumn("money_dict", .decimal18x6, dictionary: true),
    ])

    static let maxMoney: Int64 = 999_999_999_999_999_999

    static let notes: [ParquetValue] = [
        .string("plain"), .string("with \"quotes\""), .string("comma, separated"), .string("line\nbreak\r\nand CR\r"),
        .string("é日本🧾"), .string(""), .string("e\u{301}"), .null, .string("\u{E9}"), .string("tab\there"),
        .string("'single' ; semicolon"), .string("ünïcödé ✓"),
    ]

    static var rows: [[ParquetValue]] {
        let ns: [Int64] = [Int64.min, Int64.max, 0, -1, 1, 42, -42, 1 << 40, -(1 << 40), 7, 8, 9]
        let money: [ParquetValue] = [.int64(maxMoney), .int64(-maxMoney), .int64(0), .int64(1), .int64(-1), .int64(1_500_000),
                                     .null, .int64(123_456_789), .int64(-10_000_000), .null, .int64(999_999), .int64(1_000_000)]
        let times: [Int64] = [0, 1_767_225_600_000_000, -1, 253_402_300_799_999_999, -62_135_596_800_000_000, 1_700_000_000_123_456,
                              86_400_000_000, 5, 6, 7, 8, 9]
        return (0..<12).map { i -> [ParquetValue] in
            let plan: ParquetValue = i % 4 == 3 ? .null : .string(["pro", "free", "team, annual"][i % 3])
            let big: ParquetValue = i % 5 == 2 ? .null : .int64([Int64.min, Int64.max, 0][i % 3])
            let flag: ParquetValue = i % 3 == 2 ? .null : .bool(i % 2 == 0)
            let atDict: ParquetValue = i % 6 == 5 ? .null : .int64([0, -1, 1_767_225_600_000_000][i % 3])
            let moneyDict: Int64 = [maxMoney, -maxMoney, 2_500_000][i % 3]
            return [.string("ev-\(i)"), notes[i], plan, .int64(ns[i]), big, flag, .int64(times[i]), atDict, money[i], .int64(moneyDict)]
        }
    }

    /// Five rows a row group: three row groups of 5, 5, 2.
    static var options: ParquetWriterOptions {
        var o = ParquetWriterOptions()
        o.rowGroupRowLimit = 5
        o.pageRowLimit = 3
        o.createdBy = "parquet-tests version 1.0"
        return o
    }

    static let keyValues = [ParquetKeyValue("ledger.head.position", "12"), ParquetKeyValue("ledger.head.hash", "18c94606fe14c451")]
}

/// What a reader prints for `value`: strings as they are, integers in decimal, booleans as
/// true/false; decimals as text with `scale` digits when `decimalScale` is given (DuckDB).
func readerText(_ value: ParquetValue, decimalScale: Int? = nil) -> String? {
    switch value {
    case .null: nil
    case .string(let s): s
    case .int64(let v): decimalScale.map { decimalText(v, scale: $0) } ?? String(v)
    case .bool(let b): b ? "true" : "false"
    }
}

/// The bounds a reader should report for `values` of `type` (nil when all are null), in the
/// pyarrow script's text: byte-wise order for strings, signed for integers, false < true.
func expectedBounds(_ values: [ParquetValue], _ type: ParquetColumnType) -> (min: String, max: String)? {
    let present = values.filter { $0 != .null }
    guard !present.isEmpty else { return nil }
    switch type {
    case .string:
        let bytes = present.compactMap { v -> [UInt8]? in if case .string(let s) = v { Array(s.utf8) } else { nil } }
        let ordered = bytes.sorted { $0.lexicographicallyPrecedes($1) }
        return (String(decoding: ordered.first!, as: UTF8.self), String(decoding: ordered.last!, as: UTF8.self))
    case .boolean:
        let flags = present.compactMap { v -> Bool? in if case .bool(let b) = v { b } else { nil } }
        return (flags.contains(false) ? "false" : "true", flags.contains(true) ? "true" : "false")
    default:
        let ints = present.compactMap { v -> Int64? in if case .int64(let i) = v { i } else { nil } }
        return (String(ints.min()!), String(ints.max()!))
    }
}

/// Strings as their UTF-8 bytes, so comparisons are byte-exact.
func utf8(_ texts: [String?]) -> [[UInt8]?] {
    texts.map { $0.map { Array($0.utf8) } }
}
