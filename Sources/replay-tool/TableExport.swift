import Foundation
import CSVTable
import EventStore
import LedgerTables
import Parquet
import SubscriptionDomain
import Platform
import Reports

/// `export --table events|subscriptions|users --format parquet|csv --out FILE [--at T]`: the
/// ledger as tables for analysts' tools (docs/analysts.md). With `--log` repeated, each
/// partition's log writes its own file into the folder `--out` names.
enum TableExport {
    /// The file formats a table is written in.
    enum Format: String { case parquet, csv }

    static let options = [
        OptionSpec(name: "--table", value: "events|subscriptions|users", help: "write this table instead of JSON Lines (docs/analysts.md)"),
        OptionSpec(name: "--format", value: "parquet|csv", help: "with --table: the file format (default: parquet)"),
        OptionSpec(name: "--out", value: "FILE|DIR|-", help: "with --table: the file (- is stdout, CSV only); with --log repeated, a folder"),
        OptionSpec(name: "--at", value: "TIME", help: "with --table: subscriptions and users as of this instant: RFC 3339, now, today, yesterday or -7d (default: now)"),
    ]

    static let details = """
    With --table, the log is written as a table for DuckDB, pandas or Spark: events (one row per record),
    subscriptions (one row per subscription period as known at --at) or users (the fields of state --format json
    as of --at), in Parquet (times TIMESTAMP(MICROS, UTC), money DECIMAL(18,6), the log's head in the key-value
    metadata ledger.head.position and ledger.head.hash) or CSV (RFC 4180, a header row, times in RFC 3339 UTC).
    The file is written under a temporary name and renamed over --out only when whole; then one JSON line says what
    was written. With --log repeated, --out is a folder and each log writes TABLE-P.EXT (P its partition's index,
    or its place in the --log list). Columns and decisions: docs/analysts.md.
    """

    /// Refuses the table options (and several logs) on a plain export.
    static func refuseTableOptions(_ a: ParsedArguments) throws {
        for name in ["--format", "--out", "--at"] where a.has(name) {
            throw ToolError.usage("\(name) goes with --table (a plain export prints JSON Lines to stdout)")
        }
        if a.all("--log").count > 1 { throw ToolError.usage("a plain export reads one --log; --log repeated goes with --table") }
    }

    static func run(_ a: ParsedArguments) throws -> Int32 {
        let name = a.value("--table") ?? ""
        guard let table = LedgerTable(rawValue: name) else {
            throw ToolError.usage("--table '\(name)' is not one of \(LedgerTable.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let formatName = a.value("--format") ?? "parquet"
        guard let format = Format(rawValue: formatName) else { throw ToolError.usage("--format '\(formatName)' is not one of parquet, csv") }
        guard let out = a.value("--out") else { throw ToolError.usage("--table needs --out FILE (- for stdout, CSV only)") }
        if a.has("--from-position") { throw ToolError.usage("--from-position goes with a plain export, not with --table") }
        if out == "-" && format == .parquet { throw ToolError.usage("Parquet is written to a file: give --out FILE (- is for CSV)") }
        let at = try Common.at(a)
        let profile = try Common.profile(a.value("--profile"))
        let dirs = try Common.logDirectories(a)
        guard dirs.count > 1 else {
            try write(table, format, of: dirs[0], to: out, at: at, profile: profile, a)
            return 0
        }
        guard out != "-", PlatformPath.kind(out) == .directory else {
            throw ToolError.usage("with --log repeated, --out names a folder (each partition writes its own file there): \(out) is not one")
        }
        let declared = try Common.declaredPartitions(dirs)
        for (i, dir) in dirs.enumerated() {
            let file = PlatformPath.join(out, "\(table.rawValue)-\(declared?[i].index ?? i).\(format.rawValue)")
            try write(table, format, of: dir, to: file, at: at, profile: profile, a)
        }
        return 0
    }

    /// Writes one log's table to `path` (or stdout), then says what was written.
    static func write(_ table: LedgerTable, _ format: Format, of dir: String, to path: String, at: Timestamp, profile: Profile,
                      _ a: ParsedArguments) throws {
        try Common.requireLog(dir)
        try Common.checkApp(profile, directory: dir)
        if path != "-" { try Common.checkOutput(path) }
        let log = try Common.openLog(a, directory: dir, indexes: false)
        var reader = LedgerTableReader(log: log, profile: profile, asOf: at)
        // Tests fold small logs in several buckets to exercise the bucketed fold.
        if let n = ProcessInfo.processInfo.environment["REPLAY_TOOL_TABLE_BUCKET_RECORDS"].flatMap({ UInt64($0) }), n > 0 { reader.recordsPerBucket = n }
        let head = reader.head
        var rows = 0
        do {
            switch format {
            case .parquet: rows = try writeParquet(table, reader, to: path)
            case .csv: rows = try writeCSV(table, reader, to: path)
            }
        } catch let e as TableError {
            throw ToolError.input("\(dir): \(e.description)")
        } catch let e as any LocatedError {
            throw ToolError.input("cannot write \(path): \(e.description)")
        }
        guard path != "-" else { return }
        Console.out(JSON.object([("table", .string(table.rawValue)), ("format", .string(format.rawValue)), ("log", .string(dir)),
                                 ("file", .string(path)), ("rows", .int(rows)), ("headPosition", .int(Int(head.position))),
                                 ("headHash", .string(head.hash.description)), ("at", .time(at))]).rendered + "\n")
    }

    /// The table as Parquet through a temporary file renamed over `path` when whole; the row count.
    static func writeParquet(_ table: LedgerTable, _ reader: LedgerTableReader, to path: String) throws -> Int {
        let file = try OutputFile(path: path)
        var options = ParquetWriterOptions()
        options.createdBy = "replay-tool version 1.0.0"
        var writer: ParquetWriter<OutputFileSink>
        do {
            writer = try ParquetWriter(schema: table.schema, sink: OutputFileSink(file), options: options)
            try reader.forEachRow(table) { row in
                do { try writer.append(row: row) } catch let e as ParquetError where e.code == .invalidRow {
                    throw ParquetError(.invalidRow, "\(rowName(table, row)): \(e.message)", column: e.column)
                }
            }
            try writer.finish(keyValueMetadata: LedgerTable.headMetadata(position: reader.head.position, hash: reader.head.hash.description))
        } catch let e as ParquetError {
            if let underlying = e.underlying as? any LocatedError { throw underlying }
            throw ToolError.input("cannot write \(path): \(e.description)")
        }
        var sink = writer.sink
        try sink.flush()
        try file.commit()
        return Int(writer.rowCount)
    }

    /// The table as CSV to stdout, or through a temporary file renamed over `path` when whole; the row count.
    static func writeCSV(_ table: LedgerTable, _ reader: LedgerTableReader, to path: String) throws -> Int {
        let columns = table.columns
        let file = path == "-" ? nil : try OutputFile(path: path)
        var csv = try CSVWriter(header: columns.map(\.name))
        func drain() throws {
            let bytes = csv.takeBytes()
            if let file { try file.write(bytes) } else { Console.out(bytes: bytes) }
        }
        var fields: [String?] = []
        var rows = 0
        try reader.forEachRow(table) { row in
            fields.removeAll(keepingCapacity: true)
            for (value, column) in zip(row, columns) { fields.append(TableCell.csvText(value, column.type)) }
            try csv.append(row: fields)
            rows += 1
            if csv.pendingByteCount >= 1 << 20 { try drain() }
        }
        try drain()
        try file?.commit()
        if file == nil { try Console.flushOrThrow() }
        return rows
    }

    /// A row named for an error message: its position, or its user and transaction.
    static func rowName(_ table: LedgerTable, _ row: [ParquetValue]) -> String {
        func text(_ i: Int) -> String {
            switch row[i] {
            case .string(let s): "'\(s)'"
            case .int64(let v): "\(v)"
            case .bool(let b): "\(b)"
            case .null: "null"
            }
        }
        switch table {
        case .events: return "the record at position \(text(0))"
        case .subscriptions: return "the subscription period of user \(text(0)), transaction \(text(3))"
        case .users: return "user \(text(0))"
        }
    }
}
