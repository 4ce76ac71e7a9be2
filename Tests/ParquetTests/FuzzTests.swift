import Testing
@testable import Parquet

/// Random schemas, limits and rows, a tenth of them broken: the writer never traps, refuses
/// exactly the broken rows, and the file holds exactly the rest.
@Suite struct FuzzTests {
    /// A row broken one way: wrong width, a value of the wrong kind, null where required, or a
    /// decimal past its precision. Nil when the schema offers no way to break it like that.
    static func broken(_ row: [ParquetValue], _ schema: ParquetSchema, _ t: inout RandomTables) -> [ParquetValue]? {
        var row = row
        let c = t.below(row.count)
        let column = schema.columns[c]
        switch t.below(4) {
        case 0:
            if t.chance(50) { row.append(.null) } else { row.removeLast() }
        case 1:
            switch column.type {
            case .string: row[c] = .int64(1)
            case .boolean: row[c] = .string("true")
            default: row[c] = .bool(true)
            }
        case 2:
            guard !column.nullable else { return nil }
            row[c] = .null
        default:
            guard case .decimal(let precision, _) = column.type else { return nil }
            var limit: Int64 = 1
            for _ in 0..<precision { limit *= 10 }
            row[c] = .int64(t.chance(50) ? limit : (precision == 18 ? Int64.min : -limit))
        }
        return row
    }

    @Test("random tables with broken rows: no trap, broken rows refused, the rest read back exactly", arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomTables(seed: UInt64) throws {
        var t = RandomTables(seed: seed)
        for round in 0..<6 {
            let schema = t.schema()
            let options = t.options()
            var writer = try ParquetWriter(schema: schema, sink: ParquetByteSink(), options: options)
            var accepted: [[ParquetValue]] = []
            for _ in 0..<t.below(500) {
                let row = t.row(for: schema)
                if t.chance(10), let bad = Self.broken(row, schema, &t) {
                    #expect(throws: ParquetError.self, "seed \(seed) round \(round): \(bad)") { try writer.append(row: bad) }
                } else {
                    try writer.append(row: row)
                    accepted.append(row)
                }
            }
            try writer.finish()
            let file = try TestFileReader(writer.sink.bytes)
            #expect(file.rowCount == Int64(accepted.count), "seed \(seed) round \(round)")
            let columns = try file.readColumns()
            for c in schema.columns.indices {
                #expect(columns[c].cells == column(accepted, c).cells, "seed \(seed) round \(round) column \(schema.columns[c])")
            }
        }
    }
}
