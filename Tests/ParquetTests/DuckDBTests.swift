import Foundation
import Testing
import TestKit
import Parquet

/// Files read back by DuckDB (python3 -c with the duckdb module; skipped when it is missing).
@Suite(.enabled(if: ExternalReaders.hasDuckDB, ExternalReaders.missingDuckDB))
struct DuckDBTests {
    @Test("the catalog table: SQL types, row count, every value, decimals as text, key-value metadata")
    func catalog() throws {
        let directory = Scratch()
        let rows = Catalog.rows
        let path = try directory.write(try parquetFile(Catalog.schema, rows, options: Catalog.options, keyValues: Catalog.keyValues), to: "catalog.parquet")
        let dump = try ExternalReaders.duckdb(path)
        #expect(dump.names == Catalog.schema.columns.map(\.name))
        #expect(dump.types == ["VARCHAR", "VARCHAR", "VARCHAR", "BIGINT", "BIGINT", "BOOLEAN", "TIMESTAMP WITH TIME ZONE",
                               "TIMESTAMP WITH TIME ZONE", "DECIMAL(18,6)", "DECIMAL(18,6)"])
        #expect(dump.count == 12)
        for (c, column) in Catalog.schema.columns.enumerated() {
            var scale: Int?
            if case .decimal(_, let s) = column.type { scale = s }
            let expected = rows.map { readerText($0[c], decimalScale: scale) }
            #expect(utf8(dump.values[c]) == utf8(expected), "column \(column.name)")
        }
        #expect(dump.metadata["ledger.head.position"] == "12")
        #expect(dump.metadata["ledger.head.hash"] == "18c94606fe14c451")
    }

    @Test("DuckDB sees each chunk's bounds and null count")
    func statistics() throws {
        let directory = Scratch()
        let rows = Catalog.rows
        let path = try directory.write(try parquetFile(Catalog.schema, rows, options: Catalog.options), to: "stats.parquet")
        let dump = try ExternalReaders.duckdb(path)
        #expect(dump.stats.count == 3 * 10)
        for stat in dump.stats {
            let slice = Array(rows[(stat.row_group * 5)..<min(rows.count, stat.row_group * 5 + 5)])
            let values = column(slice, stat.column)
            #expect(stat.null_count == values.filter { $0 == .null }.count, "row group \(stat.row_group) column \(stat.column)")
            // Text and INT64 columns: DuckDB prints these bounds as the values themselves.
            let type = Catalog.schema.columns[stat.column].type
            if type == .string || type == .int64, let bounds = expectedBounds(values, type) {
                #expect(stat.min == bounds.min && stat.max == bounds.max, "row group \(stat.row_group) column \(stat.column)")
            }
        }
    }

    @Test("an empty table: the columns and their types, no rows")
    func emptyTable() throws {
        let directory = Scratch()
        let dump = try ExternalReaders.duckdb(try directory.write(try parquetFile(Catalog.schema, []), to: "empty.parquet"))
        #expect(dump.count == 0)
        #expect(dump.types.count == 10)
        #expect(dump.types[6] == "TIMESTAMP WITH TIME ZONE")
    }
}
