import Parquet

/// Writes `rows` with `schema` into memory and returns the file.
func parquetFile(_ schema: ParquetSchema, _ rows: [[ParquetValue]], options: ParquetWriterOptions = ParquetWriterOptions(),
                 keyValues: [ParquetKeyValue] = []) throws -> [UInt8] {
    var writer = try ParquetWriter(schema: schema, sink: ParquetByteSink(), options: options)
    for row in rows { try writer.append(row: row) }
    try writer.finish(keyValueMetadata: keyValues)
    return writer.sink.bytes
}

/// The column `c` of `rows`.
func column(_ rows: [[ParquetValue]], _ c: Int) -> [ParquetValue] {
    rows.map { $0[c] }
}

/// The 8 little-endian bytes of `v` (a PLAIN INT64, as statistics hold it).
func littleEndian(_ v: Int64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * Int64($0))) }
}

/// `units` of a decimal with `scale` digits after the point, as text: -1 at scale 6 is "-0.000001".
func decimalText(_ units: Int64, scale: Int) -> String {
    let negative = units < 0
    let magnitude = units.magnitude
    var digits = String(magnitude)
    if scale > 0 {
        if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
    }
    return (negative ? "-" : "") + digits
}
