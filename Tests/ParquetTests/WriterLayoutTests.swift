import Testing
@testable import Parquet

/// The file's frame and footer, read back with the tests' own Thrift decoder and page reader.
@Suite struct WriterLayoutTests {
    static let schema = try! ParquetSchema([
        ParquetColumn("id", .string),
        ParquetColumn("plan", .string, nullable: true, dictionary: true),
        ParquetColumn("at", .timestampMicros),
        ParquetColumn("amount", .decimal18x6, nullable: true),
        ParquetColumn("trial", .boolean, nullable: true),
        ParquetColumn("n", .int64, dictionary: true),
    ])

    static func rows(_ count: Int) -> [[ParquetValue]] {
        (0..<count).map { i -> [ParquetValue] in
            let plan: ParquetValue = i % 5 == 0 ? .null : .string(["pro", "free", "team"][i % 3])
            let at = Int64(1_700_000_000_000_000) + Int64(i) * 1_000_000
            let amount: ParquetValue = i % 4 == 0 ? .null : .int64(Int64(i) * 1_250_000 - 9_000_000)
            let trial: ParquetValue = i % 7 == 0 ? .null : .bool(i % 2 == 0)
            return [.string("ev-\(i)"), plan, .int64(at), amount, trial, .int64(Int64(i % 6) - 3)]
        }
    }

    @Test("PAR1 at both ends, the footer length, row count, and offsets that point at page headers")
    func frameAndOffsets() throws {
        var options = ParquetWriterOptions()
        options.rowGroupRowLimit = 40
        options.pageRowLimit = 16
        let bytes = try parquetFile(Self.schema, Self.rows(100), options: options)
        let file = try TestFileReader(bytes)
        #expect(file.rowCount == 100)
        #expect(file.rowGroups.count == 3)
        #expect(file.rowGroups.map { $0[3]?.int } == [40, 40, 20])
        #expect(file.footer[1]?.int == 1)
        #expect(file.footer[7]?.list?.count == 6)
        #expect(file.schema.count == 7)
        var expectedOffset: Int64 = 4
        for (g, group) in file.rowGroups.enumerated() {
            #expect(group[5]?.int == expectedOffset, "row group \(g) file_offset")
            var groupBytes: Int64 = 0
            for c in 0..<6 {
                let meta = try #require(file.columnMeta(g, c))
                let start = meta[11]?.int ?? meta[9]?.int
                #expect(start == expectedOffset, "chunk \(g)/\(c) starts where the previous ended")
                if let dictionaryOffset = meta[11]?.int {
                    var reader = CompactReader(bytes, offset: Int(dictionaryOffset))
                    #expect(try reader.readStruct()[1]?.int == 2, "a dictionary page header at dictionary_page_offset")
                }
                var reader = CompactReader(bytes, offset: Int(try #require(meta[9]?.int)))
                #expect(try reader.readStruct()[1]?.int == 0, "a data page header at data_page_offset")
                #expect(meta[3]?.list?.compactMap(\.string) == [Self.schema.columns[c].name])
                #expect(meta[4]?.int == 0, "UNCOMPRESSED")
                #expect(meta[6]?.int == meta[7]?.int)
                expectedOffset += try #require(meta[7]?.int)
                groupBytes += try #require(meta[7]?.int)
            }
            #expect(group[2]?.int == groupBytes)
            #expect(group[6]?.int == groupBytes)
            #expect(group[7]?.int == Int64(g))
        }
        #expect(expectedOffset == Int64(file.footerOffset))
    }

    @Test("every value, null and dictionary index reads back through the tests' own page reader")
    func roundTrip() throws {
        var options = ParquetWriterOptions()
        options.rowGroupRowLimit = 33
        options.pageRowLimit = 7
        let rows = Self.rows(150)
        let file = try TestFileReader(try parquetFile(Self.schema, rows, options: options))
        let columns = try file.readColumns()
        for c in 0..<6 { #expect(columns[c].cells == column(rows, c).cells, "column \(c)") }
    }

    @Test("an empty table: the schema, zero rows, no row groups")
    func emptyTable() throws {
        let bytes = try parquetFile(Self.schema, [])
        let file = try TestFileReader(bytes)
        #expect(file.rowCount == 0)
        #expect(file.rowGroups.isEmpty)
        #expect(file.schema.count == 7)
        #expect(file.footerOffset == 4)
    }

    @Test("key-value metadata: the options' pairs, then finish's, in order; created_by as set")
    func keyValues() throws {
        var options = ParquetWriterOptions()
        options.keyValueMetadata = [ParquetKeyValue("exported.table", "events")]
        options.createdBy = "replay-tool version 2.1"
        let bytes = try parquetFile(Self.schema, Self.rows(3), options: options,
                                    keyValues: [ParquetKeyValue("ledger.head.position", "43"), ParquetKeyValue("ledger.head.hash", "18c9")])
        let file = try TestFileReader(bytes)
        #expect(file.keyValues.map(\.0) == ["exported.table", "ledger.head.position", "ledger.head.hash"])
        #expect(file.keyValues.map(\.1) == ["events", "43", "18c9"])
        #expect(file.footer[6]?.string == "replay-tool version 2.1")
    }

    @Test("statistics: signed little-endian INT64 bounds, byte-wise string bounds, false < true, null counts")
    func statistics() throws {
        let schema = try ParquetSchema([
            ParquetColumn("s", .string, nullable: true),
            ParquetColumn("d", .string, dictionary: true),
            ParquetColumn("i", .int64),
            ParquetColumn("b", .boolean),
            ParquetColumn("none", .decimal18x6, nullable: true),
        ])
        let rows: [[ParquetValue]] = [
            [.string("é"), .string("b"), .int64(-5), .bool(true), .null],
            [.string("Z"), .string("a"), .int64(Int64.max), .bool(true), .null],
            [.null, .string("ab"), .int64(Int64.min), .bool(true), .null],
            [.string("z"), .string("b"), .int64(0), .bool(true), .null],
        ]
        let file = try TestFileReader(try parquetFile(schema, rows))
        func stats(_ c: Int) throws -> CompactReader.Value { try #require(file.columnMeta(0, c)?[12]) }
        // "Z" (0x5A) < "z" (0x7A) < "é" (0xC3 0xA9) byte-wise.
        #expect(try stats(0)[6]?.binary == Array("Z".utf8))
        #expect(try stats(0)[5]?.binary == Array("é".utf8))
        #expect(try stats(0)[3]?.int == 1)
        #expect(try stats(0)[1] == nil, "no deprecated signed bounds for strings")
        #expect(try stats(1)[6]?.binary == Array("a".utf8))
        #expect(try stats(1)[5]?.binary == Array("b".utf8))
        #expect(try stats(2)[6]?.binary == littleEndian(Int64.min))
        #expect(try stats(2)[5]?.binary == littleEndian(Int64.max))
        #expect(try stats(2)[2]?.binary == littleEndian(Int64.min), "deprecated min for a signed type")
        #expect(try stats(2)[3]?.int == 0)
        #expect(try stats(3)[6]?.binary == [1])
        #expect(try stats(3)[5]?.binary == [1])
        #expect(try stats(4)[3]?.int == 4)
        #expect(try stats(4)[5] == nil && stats(4)[6] == nil, "no bounds when every value is null")
    }

    @Test("a string bound longer than statisticsByteLimit drops the chunk's min/max, keeps the null count")
    func longStringBounds() throws {
        let schema = try ParquetSchema([ParquetColumn("s", .string, nullable: true)])
        var options = ParquetWriterOptions()
        options.statisticsByteLimit = 8
        options.rowGroupRowLimit = 2
        let rows: [[ParquetValue]] = [[.string("short")], [.null], [.string(String(repeating: "x", count: 9))], [.string("a")]]
        let file = try TestFileReader(try parquetFile(schema, rows, options: options))
        #expect(file.columnMeta(0, 0)?[12]?[6]?.binary == Array("short".utf8))
        #expect(file.columnMeta(1, 0)?[12]?[6] == nil)
        #expect(file.columnMeta(1, 0)?[12]?[3]?.int == 0)
        #expect(try file.readColumns()[0].cells == column(rows, 0).cells)
    }

    @Test("a dictionary that outgrows its entry limit: earlier pages keep indices, the rest is PLAIN")
    func dictionaryFallback() throws {
        let schema = try ParquetSchema([
            ParquetColumn("s", .string, nullable: true, dictionary: true),
            ParquetColumn("n", .int64, dictionary: true),
        ])
        var options = ParquetWriterOptions()
        options.dictionaryEntryLimit = 5
        options.pageRowLimit = 4
        options.rowGroupRowLimit = 30
        let rows: [[ParquetValue]] = (0..<60).map { i in
            let key = i < 10 ? i % 3 : i
            return [i % 9 == 4 ? .null : .string("k\(key)"), .int64(Int64(key))]
        }
        let file = try TestFileReader(try parquetFile(schema, rows, options: options))
        for c in 0..<2 {
            let first = try #require(file.columnMeta(0, c))
            #expect(first[2]?.list?.compactMap(\.int).contains(8) == true, "RLE_DICTIONARY used in row group 0")
            #expect(first[2]?.list?.compactMap(\.int).contains(0) == true, "PLAIN used after the fallback")
            #expect(first[11] != nil)
            let counts = try #require(first[13]?.list)
            #expect(counts.contains { $0[1]?.int == 0 && $0[2]?.int == 8 })
            #expect(counts.contains { $0[1]?.int == 0 && $0[2]?.int == 0 })
            // The second row group holds only new keys: past the limit from its 6th distinct value.
            let second = try #require(file.columnMeta(1, c))
            #expect(second[2]?.list?.compactMap(\.int).contains(0) == true)
        }
        let columns = try file.readColumns()
        #expect(columns[0].cells == column(rows, 0).cells)
        #expect(columns[1].cells == column(rows, 1).cells)
    }

    @Test("a dictionary that outgrows its byte limit falls back too")
    func dictionaryByteFallback() throws {
        let schema = try ParquetSchema([ParquetColumn("s", .string, dictionary: true)])
        var options = ParquetWriterOptions()
        options.dictionaryByteLimit = 40
        let rows: [[ParquetValue]] = (0..<20).map { [.string(String(repeating: "v", count: 5 + $0 % 7))] }
        let file = try TestFileReader(try parquetFile(schema, rows, options: options))
        let meta = try #require(file.columnMeta(0, 0))
        #expect(meta[2]?.list?.compactMap(\.int) == [0, 8])
        let counts = try #require(meta[13]?.list)
        #expect(counts.contains { $0[1]?.int == 0 && $0[2]?.int == 0 }, "a PLAIN data page after the fallback")
        var reader = CompactReader(file.bytes, offset: Int(try #require(meta[11]?.int)))
        let dictionaryHeader = try reader.readStruct()
        #expect(try #require(dictionaryHeader[2]?.int) <= 40, "the dictionary page stays within the byte limit")
        #expect(try file.readColumns()[0].cells == column(rows, 0).cells)
    }

    @Test("row groups close at the byte limit: each stays within the limit plus one row")
    func rowGroupByteLimit() throws {
        let schema = try ParquetSchema([ParquetColumn("s", .string), ParquetColumn("n", .int64)])
        var options = ParquetWriterOptions()
        options.rowGroupByteLimit = 4096
        options.pageByteLimit = 1024
        let rows: [[ParquetValue]] = (0..<2000).map { [.string("row-\($0)-" + String(repeating: "p", count: $0 % 50)), .int64(Int64($0))] }
        let file = try TestFileReader(try parquetFile(schema, rows, options: options))
        #expect(file.rowGroups.count > 10)
        for group in file.rowGroups {
            #expect(try #require(group[2]?.int) < 4096 + 512)
        }
        #expect(file.rowGroups.compactMap { $0[3]?.int }.reduce(0, +) == 2000)
        #expect(try file.readColumns()[0].cells == column(rows, 0).cells)
    }

    @Test("pages close at the page byte limit")
    func pageByteLimit() throws {
        let schema = try ParquetSchema([ParquetColumn("n", .int64)])
        var options = ParquetWriterOptions()
        options.pageByteLimit = 80
        let rows: [[ParquetValue]] = (0..<100).map { [.int64(Int64($0))] }
        let file = try TestFileReader(try parquetFile(schema, rows, options: options))
        let counts = try #require(file.columnMeta(0, 0)?[13]?.list)
        #expect(counts.first?[3]?.int == 10, "ten pages of ten 8-byte values")
        #expect(try file.readColumns()[0].cells == column(rows, 0).cells)
    }
}
