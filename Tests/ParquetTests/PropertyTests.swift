import Foundation
import Testing
import TestKit
import Parquet

/// Seeded random tables read back by pyarrow (as JSON) and DuckDB: every value, type, row
/// group and bound as written. Skipped when the reader is missing.
@Suite struct PropertyTests {
    static func arrowType(_ type: ParquetColumnType) -> String {
        switch type {
        case .string: "string"
        case .int64: "int64"
        case .boolean: "bool"
        case .timestampMicros: "timestamp[us, tz=UTC]"
        case .decimal(let p, let s): "decimal128(\(p), \(s))"
        }
    }

    /// A random table: its schema, options, rows, and the file the writer made of them.
    static func table(seed: UInt64) throws -> (ParquetSchema, [[ParquetValue]], [UInt8], rowGroupRows: [Int]) {
        var t = RandomTables(seed: seed)
        let schema = t.schema()
        let options = t.options()
        var writer = try ParquetWriter(schema: schema, sink: ParquetByteSink(), options: options)
        var rows: [[ParquetValue]] = []
        var groupRows: [Int] = []
        var groupsBefore = 0
        var rowsBefore = 0
        for _ in 0..<t.below(3000) {
            let row = t.row(for: schema)
            try writer.append(row: row)
            rows.append(row)
            if writer.rowGroupCount > groupsBefore {
                groupRows.append(rows.count - rowsBefore)
                rowsBefore = rows.count
                groupsBefore = writer.rowGroupCount
            }
        }
        if rows.count > rowsBefore { groupRows.append(rows.count - rowsBefore) }
        try writer.finish()
        return (schema, rows, writer.sink.bytes, groupRows)
    }

    @Test("random tables read back by pyarrow equal what was written", .enabled(if: ExternalReaders.hasPyarrow, ExternalReaders.missingPyarrow),
          arguments: [UInt64(101), 102, 103, 104])
    func pyarrow(seed: UInt64) throws {
        let (schema, rows, bytes, groupRows) = try Self.table(seed: seed)
        let directory = Scratch()
        let dump = try ExternalReaders.pyarrow(try directory.write(bytes, to: "random-\(seed).parquet"))
        #expect(dump.num_rows == rows.count, "seed \(seed)")
        #expect(dump.names == schema.columns.map(\.name), "seed \(seed)")
        #expect(dump.types == schema.columns.map { Self.arrowType($0.type) }, "seed \(seed)")
        #expect(dump.row_groups.map(\.num_rows) == groupRows, "seed \(seed)")
        for (c, column) in schema.columns.enumerated() {
            #expect(utf8(dump.values[c]) == utf8(rows.map { readerText($0[c]) }), "seed \(seed), column \(column)")
        }
        var start = 0
        for (g, group) in dump.row_groups.enumerated() {
            let slice = Array(rows[start..<(start + group.num_rows)])
            start += group.num_rows
            for (c, stats) in group.columns.enumerated() {
                let values = column(slice, c)
                #expect(stats.null_count == values.filter { $0 == .null }.count, "seed \(seed), row group \(g), column \(c)")
                let bounds = expectedBounds(values, schema.columns[c].type)
                let tooLong = bounds.map { $0.min.utf8.count > 64 || $0.max.utf8.count > 64 } ?? false
                if let bounds, !tooLong {
                    #expect(stats.min.map { Array($0.utf8) } == Array(bounds.min.utf8), "seed \(seed), row group \(g), column \(c)")
                    #expect(stats.max.map { Array($0.utf8) } == Array(bounds.max.utf8), "seed \(seed), row group \(g), column \(c)")
                } else {
                    #expect(!stats.has_min_max, "seed \(seed), row group \(g), column \(c)")
                }
            }
        }
    }

    @Test("random tables read back by DuckDB equal what was written", .enabled(if: ExternalReaders.hasDuckDB, ExternalReaders.missingDuckDB),
          arguments: [UInt64(201), 202])
    func duckdb(seed: UInt64) throws {
        let (schema, rows, bytes, _) = try Self.table(seed: seed)
        let directory = Scratch()
        let dump = try ExternalReaders.duckdb(try directory.write(bytes, to: "random-\(seed).parquet"))
        #expect(dump.count == rows.count, "seed \(seed)")
        for (c, column) in schema.columns.enumerated() {
            var scale: Int?
            if case .decimal(_, let s) = column.type { scale = s }
            #expect(utf8(dump.values[c]) == utf8(rows.map { readerText($0[c], decimalScale: scale) }), "seed \(seed), column \(column)")
        }
    }
}
