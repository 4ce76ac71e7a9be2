import Testing
@testable import Parquet

/// What the writer refuses, and how it fails: bad schemas and options, rows that do not fit,
/// sinks that fail, calls after the end.
@Suite struct WriterContractTests {
    static let schema = try! ParquetSchema([
        ParquetColumn("id", .string),
        ParquetColumn("amount", .decimal18x6, nullable: true),
        ParquetColumn("flag", .boolean),
    ])

    /// A sink that fails on its `failAt`-th write (0-based), counting bytes before that.
    struct FailingSink: ParquetSink {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "disk full" }
        }
        var failAt: Int
        var writes = 0
        var bytes = 0
        mutating func write(_ data: UnsafeRawBufferPointer) throws {
            defer { writes += 1 }
            if writes == failAt { throw Refused() }
            bytes += data.count
        }
    }

    @Test("schemas: at least one column, named, unique, decimals that fit INT64, no boolean dictionary")
    func schemaChecks() {
        func code(_ columns: [ParquetColumn]) -> ParquetError.Code? {
            do { _ = try ParquetSchema(columns); return nil } catch { return error.code }
        }
        #expect(code([]) == .invalidSchema)
        #expect(code([ParquetColumn("", .int64)]) == .invalidSchema)
        #expect(code([ParquetColumn("a", .int64), ParquetColumn("a", .string)]) == .invalidSchema)
        #expect(code([ParquetColumn("d", .decimal(precision: 19, scale: 2))]) == .invalidSchema)
        #expect(code([ParquetColumn("d", .decimal(precision: 0, scale: 0))]) == .invalidSchema)
        #expect(code([ParquetColumn("d", .decimal(precision: 4, scale: 5))]) == .invalidSchema)
        #expect(code([ParquetColumn("b", .boolean, dictionary: true)]) == .invalidSchema)
        #expect(code([ParquetColumn("d", .decimal(precision: 1, scale: 1)), ParquetColumn("é", .string)]) == nil)
    }

    @Test("options out of range are refused, naming the option")
    func optionChecks() {
        var options = ParquetWriterOptions()
        options.pageRowLimit = 0
        #expect {
            _ = try ParquetWriter(schema: Self.schema, sink: ParquetByteSink(), options: options)
        } throws: { error in
            (error as? ParquetError)?.code == .invalidOption && "\(error)".contains("pageRowLimit")
        }
        options = ParquetWriterOptions()
        options.rowGroupRowLimit = Int(Int32.max) + 1
        #expect(throws: ParquetError.self) { _ = try ParquetWriter(schema: Self.schema, sink: ParquetByteSink(), options: options) }
    }

    @Test("a row that does not fit throws invalidRow naming row and column, and adds nothing")
    func invalidRows() throws {
        var writer = try ParquetWriter(schema: Self.schema, sink: ParquetByteSink())
        try writer.append(row: [.string("a"), .int64(999_999_999_999_999_999), .bool(true)])
        let bad: [[ParquetValue]] = [
            [.string("b"), .null],                                          // too short
            [.string("b"), .null, .bool(true), .null],                      // too long
            [.null, .null, .bool(true)],                                    // null in a required column
            [.int64(1), .null, .bool(true)],                                // wrong kind
            [.string("b"), .bool(true), .bool(true)],                       // wrong kind for a decimal
            [.string("b"), .int64(1_000_000_000_000_000_000), .bool(true)], // beyond precision 18
            [.string("b"), .int64(-1_000_000_000_000_000_000), .bool(true)],
            [.string("b"), .int64(Int64.min), .bool(false)],
        ]
        for row in bad {
            #expect {
                try writer.append(row: row)
            } throws: { error in
                guard let e = error as? ParquetError else { return false }
                return e.code == .invalidRow && e.row == 1 && "\(e)".hasPrefix("row 1")
            }
        }
        try writer.append(row: [.string("c"), .int64(-999_999_999_999_999_999), .bool(false)])
        try writer.append(row: [.string("d"), .null, .bool(false)])
        try writer.finish()
        let file = try TestFileReader(writer.sink.bytes)
        #expect(file.rowCount == 3)
        let columns = try file.readColumns()
        #expect(columns[0].cells == [.bytes(Array("a".utf8)), .bytes(Array("c".utf8)), .bytes(Array("d".utf8))])
        #expect(columns[1].cells == [.int(999_999_999_999_999_999), .int(-999_999_999_999_999_999), .null])
    }

    @Test("the error names the column and says what was wrong, on one line")
    func errorText() throws {
        var writer = try ParquetWriter(schema: Self.schema, sink: ParquetByteSink())
        do {
            try writer.append(row: [.string("a"), .string("1.5"), .bool(true)])
            Issue.record("a string in a decimal column was taken")
        } catch {
            #expect(error.description == "row 0, column 'amount': a string value in a decimal(18, 6) column")
            #expect(error.column == "amount")
        }
    }

    @Test("a sink failure at PAR1, at a row group or at the footer propagates and closes the writer")
    func sinkFailures() throws {
        #expect {
            _ = try ParquetWriter(schema: Self.schema, sink: FailingSink(failAt: 0))
        } throws: { error in
            (error as? ParquetError)?.code == .sinkFailed && (error as? ParquetError)?.underlying is FailingSink.Refused
        }
        var options = ParquetWriterOptions()
        options.rowGroupRowLimit = 2
        // Writes: PAR1, then per row group 3 chunks' data pages.
        var writer = try ParquetWriter(schema: Self.schema, sink: FailingSink(failAt: 2), options: options)
        try writer.append(row: [.string("a"), .null, .bool(true)])
        do {
            try writer.append(row: [.string("b"), .null, .bool(true)])
            Issue.record("the failed row group write was not reported")
        } catch {
            #expect(error.code == .sinkFailed)
            #expect(error.offset != nil)
            #expect(error.description.contains("disk full"))
        }
        #expect(throws: ParquetError.self) { try writer.append(row: [.string("c"), .null, .bool(true)]) }
        #expect(throws: ParquetError.self) { try writer.finish() }

        var atFooter = try ParquetWriter(schema: Self.schema, sink: FailingSink(failAt: 1))
        do {
            try atFooter.finish()
            Issue.record("the failed footer write was not reported")
        } catch {
            #expect(error.code == .sinkFailed)
        }
    }

    @Test("after finish the writer takes no rows and no second footer")
    func closedAfterFinish() throws {
        var writer = try ParquetWriter(schema: Self.schema, sink: ParquetByteSink())
        try writer.append(row: [.string("a"), .null, .bool(true)])
        try writer.finish()
        let length = writer.sink.bytes.count
        #expect { try writer.append(row: [.string("a"), .null, .bool(true)]) } throws: { ($0 as? ParquetError)?.code == .writerClosed }
        #expect { try writer.finish() } throws: { ($0 as? ParquetError)?.code == .writerClosed }
        #expect(writer.sink.bytes.count == length)
        #expect(writer.bytesWritten == Int64(length))
        #expect(writer.rowCount == 1)
        #expect(writer.rowGroupCount == 1)
    }

    @Test("flushRowGroup cuts a row group now; with nothing buffered it writes nothing")
    func explicitFlush() throws {
        var writer = try ParquetWriter(schema: Self.schema, sink: ParquetByteSink())
        try writer.flushRowGroup()
        #expect(writer.bytesWritten == 4)
        try writer.append(row: [.string("a"), .null, .bool(true)])
        try writer.flushRowGroup()
        try writer.flushRowGroup()
        try writer.append(row: [.string("b"), .int64(1), .bool(false)])
        try writer.finish()
        #expect(writer.rowGroupCount == 2)
        #expect(try TestFileReader(writer.sink.bytes).rowGroups.count == 2)
    }

    @Test("row groups are written as they fill: the sink has them before finish")
    func streaming() throws {
        var options = ParquetWriterOptions()
        options.rowGroupRowLimit = 10
        var writer = try ParquetWriter(schema: Self.schema, sink: ParquetByteSink(), options: options)
        for i in 0..<25 {
            try writer.append(row: [.string("r\(i)"), .null, .bool(true)])
            #expect(writer.rowGroupCount == (i + 1) / 10)
        }
        #expect(writer.sink.bytes.count == Int(writer.bytesWritten))
        #expect(writer.bytesWritten > 4)
    }
}
