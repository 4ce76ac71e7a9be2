import Foundation
import Testing
import TestKit

/// `export --table`: the tables read back by DuckDB and pyarrow and compared with the ledger's
/// own JSON (`export`, `state`, `revenue`, `verify`), partitions against one log, odd values,
/// and outputs that must be refused.
@Suite("export --table", .serialized)
struct TableExportTests {
    static let tables = ["events", "subscriptions", "users"]

    /// Exports `table` of `log` in `format` to `out`, expecting success.
    static func export(_ log: [String], _ profile: String, _ table: String, _ format: String, _ out: String, at: String,
                       environment: [String: String] = [:]) throws {
        let r = Tool.run(["export"] + log.flatMap { ["--log", $0] } + ["--profile", profile, "--table", table, "--format", format, "--out", out, "--at", at],
                         environment: environment)
        guard r.status == 0 else { throw TablePython.Failure(description: "export --table \(table) --format \(format): exit \(r.status): \(r.err)") }
    }

    @Test("every sample log's tables, read by DuckDB and pyarrow, equal export, state, revenue and verify")
    func sampleLogs() throws {
        guard TablePython.available else { return }
        let samples = try FileManager.default.contentsOfDirectory(atPath: Tool.packageRoot + "/events").filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(samples.count >= 5)
        for sample in samples {
            let app = String(sample.dropLast(6))
            let s = Scratch()
            let log = s.path + "/" + app
            #expect(Tool.run(["import", "--log", log, "--profile", app, Tool.packageRoot + "/events/" + sample]).status == 0)
            for at in ["2026-02-06T12:00:00Z", "2026-01-20T00:00:00Z"] {
                let dir = s.path + "/" + at.prefix(10)
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                for table in Self.tables {
                    // Several buckets for the subscriptions and users folds: the bucketed fold is what a large log gets.
                    try Self.export([log], app, table, "parquet", dir + "/" + table + ".parquet", at: at, environment: ["REPLAY_TOOL_TABLE_BUCKET_RECORDS": "4"])
                    try Self.export([log], app, table, "csv", dir + "/" + table + ".csv", at: at)
                }
                try Tool.run(["export", "--log", log, "--profile", app]).out.write(toFile: dir + "/export.jsonl", atomically: true, encoding: .utf8)
                try Tool.run(["verify", "--log", log, "--format", "json"]).out.write(toFile: dir + "/verify.json", atomically: true, encoding: .utf8)
                let revenue = Tool.run(["revenue", "--log", log, "--profile", app, "--format", "json", "--at", at])
                #expect(revenue.status == 0)
                try revenue.out.write(toFile: dir + "/revenue.json", atomically: true, encoding: .utf8)
                let users = Tool.json(try TablePython.run(TableExportScripts.users, [dir + "/users.parquet"])) as? [String] ?? []
                #expect(!users.isEmpty, "\(app): no users")
                var states: [String: Any] = [:]
                for user in users {
                    states[user] = Tool.json(Tool.run(["state", "--log", log, "--profile", app, "--user", user, "--format", "json", "--at", at]).out)
                }
                try JSONSerialization.data(withJSONObject: states).write(to: URL(fileURLWithPath: dir + "/states.json"))
                let mismatches = try TablePython.mismatches(TableExportScripts.sample, [dir, at])
                #expect(mismatches.isEmpty, "\(app) as of \(at): \(mismatches)")
            }
        }
    }

    @Test("with --log repeated each partition writes its own file, and their union is the single log's table")
    func partitionsUnion() throws {
        guard TablePython.available else { return }
        let s = Scratch()
        let input = s.path + "/events.jsonl"
        #expect(Tool.run(["generate", "--users", "400", "--seed", "7", "--out", input]).status == 0)
        #expect(Tool.run(["import", "--log", s.log, "--profile", "handz", input]).status == 0)
        var parts: [String] = []
        for p in 0..<3 {
            let log = s.path + "/part\(p)"
            #expect(Tool.run(["import", "--log", log, "--profile", "handz", "--partition", "\(p)/3", input]).status == 0)
            parts.append(log)
        }
        let folder = s.path + "/exports"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let at = "2027-01-01T00:00:00Z"
        for table in Self.tables {
            try Self.export([s.log], "handz", table, "parquet", s.path + "/" + table + ".parquet", at: at, environment: ["REPLAY_TOOL_TABLE_BUCKET_RECORDS": "500"])
            try Self.export(parts, "handz", table, "parquet", folder, at: at)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(table + "-") }.sorted()
            #expect(files == (0..<3).map { "\(table)-\($0).parquet" })
            let mismatches = try TablePython.mismatches(TableExportScripts.union, [s.path + "/" + table + ".parquet", folder + "/" + table + "-*.parquet", table])
            #expect(mismatches.isEmpty, "\(mismatches)")
        }
        // --out must then be a folder.
        let r = Tool.run(["export"] + parts.flatMap { ["--log", $0] } + ["--profile", "handz", "--table", "events", "--out", s.path + "/events.parquet"])
        #expect(r.status == 2)
        #expect(r.err.contains("folder"))
    }

    /// Rows of `table` as pyarrow reads them (values as text), after checking DuckDB's count and the CSV twin.
    static func rows(_ log: String, _ table: String, in dir: String, at: String = "2026-02-06T12:00:00Z") throws -> [[String: String?]] {
        try export([log], "handz", table, "parquet", dir + "/" + table + ".parquet", at: at)
        try export([log], "handz", table, "csv", dir + "/" + table + ".csv", at: at)
        let dump = Tool.json(try TablePython.run(TableExportScripts.rows, [dir + "/" + table + ".parquet", dir + "/" + table + ".csv"])) as? [String: Any] ?? [:]
        let rows = (dump["pyarrow"] as? [[String: Any]] ?? []).map { $0.mapValues { $0 as? String } }
        #expect(dump["duckdb_count"] as? Int == rows.count, "\(table): DuckDB and pyarrow counts")
        #expect(dump["csv_diff"] as? Int == 0, "\(table): the CSV and the Parquet file differ")
        return rows
    }

    @Test("odd values: quotes, commas, newlines, non-ASCII; a user with no subscription; an empty table; prices at the range's ends")
    func oddValues() throws {
        guard TablePython.available else { return }
        let s = Scratch()
        let odd = "o\\\"dd, üser ✓"
        let lines = [
            #"{"id":"x-1","type":"account_created","user":"\#(odd)","time":"2026-01-05T09:00:00Z"}"#,
            #"{"id":"x-2","type":"purchase","user":"max","time":"2026-01-05T10:00:00.123456Z","data":{"product":"handz.pro.monthly","transaction":"t-max","expires":"2026-03-05T10:00:00Z","price":"1000000000","currency":"EUR"}}"#,
            #"{"id":"x-3","type":"purchase","user":"min","time":"2026-01-05T11:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t-min","expires":"2026-03-05T11:00:00Z","price":"0.000001","currency":"JPY"}}"#,
            #"{"id":"x-4","type":"cancellation","user":"min","time":"2026-01-06T11:00:00Z","data":{"reason":"said \"no\", twice\nthen left — ありがとう","note":{"a":[1,"b,\"c\""]}}}"#,
        ]
        let input = s.path + "/odd.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let imported = Tool.run(["import", "--log", s.log, "--profile", "handz", input])
        #expect(imported.status == 0, "\(imported.out) \(imported.err)")
        let events = try Self.rows(s.log, "events", in: s.path)
        #expect(events.count == 4)
        #expect(events.first?["user"] == .some("o\"dd, üser ✓"))
        #expect(events.map { $0["price"] ?? nil } == [nil, "1000000000.000000", "0.000001", nil])
        #expect(events[1]["time"] == .some("2026-01-05 10:00:00.123456+00:00"))
        let data = events.last?["data"].flatMap { $0 }.map { Tool.json($0) } as? [String: Any]
        #expect(data?["reason"] as? String == "said \"no\", twice\nthen left — ありがとう")
        let users = try Self.rows(s.log, "users", in: s.path)
        let oddUser = users.first { $0["user"] == .some("o\"dd, üser ✓") }
        #expect(oddUser?["plan_state"] == .some("free"))
        #expect(oddUser?["product"] == .some(nil))
        let subscriptions = try Self.rows(s.log, "subscriptions", in: s.path)
        #expect(subscriptions.map { $0["user"] ?? nil } == ["max", "min"])
        #expect(subscriptions.map { $0["price"] ?? nil } == ["1000000000.000000", "0.000001"])
        // An empty table: no subscription yet at this instant.
        let before = try Self.rows(s.log, "subscriptions", in: s.path, at: "2026-01-05T09:30:00Z")
        #expect(before.isEmpty)
    }

    @Test("a write that fails part way is an error, and leaves no file under the name nor a temporary one")
    func failedWrite() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "--profile", "handz", Tool.packageRoot + "/events/handz.jsonl"]).status == 0)
        let out = s.path + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // A file size limit of 2 KiB: the table's bytes pass it part way.
        let limited = ["/bin/sh", "-c", "ulimit -f 2 && exec \"$0\" \"$@\""]
        for format in ["parquet", "csv"] {
            let r = Tool.run(["export", "--log", s.log, "--table", "events", "--format", format, "--out", out + "/events." + format], via: limited)
            #expect(r.status == 1, "\(format): \(r.err)")
            #expect(r.err.contains("events.\(format)"), "\(r.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
        }
    }

    @Test("an output that is a symbolic link or a FIFO is refused, and nothing is written through it")
    func refusedOutputs() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "--profile", "handz", Tool.packageRoot + "/events/handz.jsonl"]).status == 0)
        let target = s.path + "/target"
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        let link = s.path + "/link.parquet"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let fifo = s.path + "/fifo.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        for (out, format) in [(link, "parquet"), (fifo, "csv"), (s.path, "parquet"), (s.path + "/missing/x.parquet", "parquet")] {
            let r = Tool.run(["export", "--log", s.log, "--table", "users", "--format", format, "--out", out])
            #expect(r.status == 1, "\(out): \(r.err)")
            #expect(r.out.isEmpty)
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        // Plain export is unchanged, and refuses the table options without --table.
        #expect(Tool.run(["export", "--log", s.log, "--out", s.path + "/x"]).status == 2)
        #expect(Tool.run(["export", "--log", s.log, "--table", "events", "--out", "-"]).status == 2)
        #expect(Tool.run(["export", "--log", s.log, "--table", "plans", "--out", s.path + "/x"]).status == 2)
    }
}
