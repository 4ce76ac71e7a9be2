import Foundation
import Testing
import TestKit
import Parquet

/// Files read back by pyarrow (python3 -c; skipped when pyarrow is missing).
@Suite(.enabled(if: ExternalReaders.hasPyarrow, ExternalReaders.missingPyarrow))
struct PyarrowTests {
    @Test("the catalog table: Arrow types, nullability, every value, decimals, timestamps, row groups")
    func catalog() throws {
        let directory = Scratch()
        let rows = Catalog.rows
        let path = try directory.write(try parquetFile(Catalog.schema, rows, options: Catalog.options, keyValues: Catalog.keyValues), to: "catalog.parquet")
        let dump = try ExternalReaders.pyarrow(path)
        #expect(dump.names == Catalog.schema.columns.map(\.name))
        #expect(dump.types == ["string", "string", "string", "int64", "int64", "bool", "timestamp[us, tz=UTC]", "timestamp[us, tz=UTC]",
                               "decimal128(18, 6)", "decimal128(18, 6)"])
        #expect(dump.nullable == Catalog.schema.columns.map(\.nullable))
        #expect(dump.num_rows == 12)
        #expect(dump.num_row_groups == 3)
        #expect(dump.row_groups.map(\.num_rows) == [5, 5, 2])
        for c in Catalog.schema.columns.indices {
            #expect(utf8(dump.values[c]) == utf8(column(rows, c).map { readerText($0) }), "column \(Catalog.schema.columns[c].name)")
        }
        #expect(dump.decimal_text[8] == ["999999999999.999999", "-999999999999.999999", "0.000000", "0.000001", "-0.000001", "1.500000",
                                         nil, "123.456789", "-10.000000", nil, "0.999999", "1.000000"])
        #expect(dump.created_by == "parquet-tests version 1.0")
        #expect(dump.metadata == ["ledger.head.position": "12", "ledger.head.hash": "18c94606fe14c451"])
    }

    @Test("statistics of every chunk: min/max in the type's order and the null count")
    func catalogStatistics() throws {
        let directory = Scratch()
        let rows = Catalog.rows
        let path = try directory.write(try parquetFile(Catalog.schema, rows, options: Catalog.options), to: "stats.parquet")
        let dump = try ExternalReaders.pyarrow(path)
        for (g, group) in dump.row_groups.enumerated() {
            let slice = Array(rows[(g * 5)..<min(rows.count, g * 5 + 5)])
            for (c, stats) in group.columns.enumerated() {
                let values = column(slice, c)
                let label = "row group \(g), column \(Catalog.schema.columns[c].name)"
                #expect(stats.null_count == values.filter { $0 == .null }.count, "\(label)")
                #expect(stats.num_values == values.count, "\(label)")
                if let bounds = expectedBounds(values, Catalog.schema.columns[c].type) {
                    #expect(stats.has_min_max, "\(label)")
                    #expect(stats.min.map { Array($0.utf8) } == Array(bounds.min.utf8), "\(label)")
                    #expect(stats.max.map { Array($0.utf8) } == Array(bounds.max.utf8), "\(label)")
                } else {
                    #expect(!stats.has_min_max, "\(label)")
                }
                let dictionary = Catalog.schema.columns[c].dictionary
                #expect(stats.has_dictionary_page == dictionary, "\(label)")
                #expect(stats.encodings.contains("RLE_DICTIONARY") == dictionary, "\(label)")
            }
        }
    }

    @Test("an empty table: the schema and types, zero rows, zero row groups")
    func emptyTable() throws {
        let directory = Scratch()
        let path = try directory.write(try parquetFile(Catalog.schema, []), to: "empty.parquet")
        let dump = try ExternalReaders.pyarrow(path)
        #expect(dump.num_rows == 0)
        #expect(dump.num_row_groups == 0)
        #expect(dump.types.count == 10)
        #expect(dump.types[8] == "decimal128(18, 6)")
        #expect(dump.values.allSatisfy { $0.isEmpty })
    }

    @Test("all-null columns, plain and dictionary: nulls read back, no bounds, full null counts")
    func allNull() throws {
        let schema = try ParquetSchema([
            ParquetColumn("s", .string, nullable: true, dictionary: true),
            ParquetColumn("t", .timestampMicros, nullable: true),
            ParquetColumn("b", .boolean, nullable: true),
        ])
        let rows = [[ParquetValue]](repeating: [.null, .null, .null], count: 7)
        let directory = Scratch()
        let dump = try ExternalReaders.pyarrow(try directory.write(try parquetFile(schema, rows), to: "nulls.parquet"))
        #expect(dump.values == [[String?]](repeating: [String?](repeating: nil, count: 7), count: 3))
        #expect(dump.row_groups[0].columns.map(\.has_min_max) == [false, false, false])
        #expect(dump.row_groups[0].columns.map(\.null_count) == [7, 7, 7])
    }

    @Test("dictionary fallback mid-chunk and many pages: values intact, both encodings listed")
    func dictionaryFallback() throws {
        let schema = try ParquetSchema([
            ParquetColumn("user", .string, nullable: true, dictionary: true),
            ParquetColumn("amount", .decimal18x6, dictionary: true),
        ])
        var options = ParquetWriterOptions()
        options.dictionaryEntryLimit = 100
        options.pageRowLimit = 64
        let rows: [[ParquetValue]] = (0..<5000).map { i in
            let user: ParquetValue = i % 13 == 0 ? .null : .string("user-\(i < 2000 ? i % 50 : i)")
            return [user, .int64(Int64(i < 1000 ? i % 20 : i) * 10_000)]
        }
        let directory = Scratch()
        let dump = try ExternalReaders.pyarrow(try directory.write(try parquetFile(schema, rows, options: options), to: "fallback.parquet"))
        #expect(utf8(dump.values[0]) == utf8(column(rows, 0).map { readerText($0) }))
        #expect(dump.values[1] == column(rows, 1).map { readerText($0) })
        for stats in dump.row_groups[0].columns {
            #expect(stats.encodings.contains("RLE_DICTIONARY"))
            #expect(stats.encodings.contains("PLAIN"))
            #expect(stats.has_dictionary_page)
        }
    }

    @Test("a long string past the statistics limit reads back whole; its chunk has no bounds")
    func longString() throws {
        let schema = try ParquetSchema([ParquetColumn("s", .string)])
        let long = String(repeating: "ü", count: 5000)
        let rows: [[ParquetValue]] = [[.string("a")], [.string(long)]]
        let directory = Scratch()
        let dump = try ExternalReaders.pyarrow(try directory.write(try parquetFile(schema, rows), to: "long.parquet"))
        #expect(dump.values[0] == ["a", long])
        #expect(dump.row_groups[0].columns[0].has_min_max == false)
    }

    @Test("pyarrow prunes row groups by their statistics: a filter keeps only the groups that can match")
    func rowGroupPruning() throws {
        let schema = try ParquetSchema([
            ParquetColumn("position", .int64),
            ParquetColumn("at", .timestampMicros),
            ParquetColumn("user", .string, dictionary: true),
        ])
        var options = ParquetWriterOptions()
        options.rowGroupRowLimit = 100
        let rows: [[ParquetValue]] = (0..<1000).map { i in
            [.int64(Int64(i)), .int64(1_767_225_600_000_000 + Int64(i) * 60_000_000), .string("user-\(String(i / 100, radix: 10))")]
        }
        let directory = Scratch()
        let path = try directory.write(try parquetFile(schema, rows, options: options), to: "pruning.parquet")
        let script = """
        import sys, datetime, pyarrow.dataset as ds
        frag = next(ds.dataset(sys.argv[1], format="parquet").get_fragments())
        def kept(expr): return sum(f.num_row_groups for f in frag.split_by_row_group(expr))
        at = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(minutes=950)
        print(kept(ds.field("position") >= 950), kept(ds.field("position") < 0), kept(ds.field("at") >= at),
              kept(ds.field("user") == "user-3"), kept(ds.field("position") >= 0))
        """
        let output = String(decoding: try ExternalReaders.run(script, path), as: UTF8.self)
        #expect(output.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) } == ["1", "0", "1", "1", "10"])
    }
}
