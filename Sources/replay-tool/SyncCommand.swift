import Foundation
import Projections
import PostgresSink
import SubscriptionDomain
import Ingest
import Reports

/// `sync`: keeps the profile's PostgreSQL table(s) equal to the ledger's plan states (docs/postgres.md).
enum SyncCommand {
    static let spec = CommandSpec(
        name: "sync", summary: "keep the profile's PostgreSQL table(s) (mirrormate, tomo, howru) equal to the ledger's state as of now",
        positionals: nil,
        options: [Common.log, Common.profile,
                  OptionSpec(name: "--postgres", value: "CONNINFO", help: "a libpq connection string or URI (default: libpq's, from the PG* variables)"),
                  OptionSpec(name: "--init", value: nil, help: "apply the profile's shipped schema (migrations not yet applied) first"),
                  OptionSpec(name: "--rebuild", value: nil, help: "recompute every row (after a rule change, or from another log), in one transaction"),
                  OptionSpec(name: "--schema", value: nil, help: "print the profile's SQL migrations and exit (no database needed)"),
                  Common.at, Common.tableOrJSON],
        details: """
        Runs psql (the postgresql-client package; REPLAY_TOOL_PSQL names another binary). Each run is one transaction:
        the changed rows and the ledger_checkpoint row (log position, chain hash, instant, rules) commit together or not
        at all. A run after a checkpoint examines only the users of the records appended since and the users whose plan
        moved on its own (timers, late-effective events). A checkpoint from another log or other rules is refused
        (exit 1) until --rebuild. Users the table cannot hold (a non-UUID id for a uuid column) are reported on stderr
        and listed in ledger_sync_skipped; the rest are written (exit 0).
        """
    ) { a in
        let profile = try Common.profile(a.value("--profile"))
        let format = try Common.format(a, allowed: [.table, .json])
        let target: SyncTarget
        do { target = try SyncTarget(profile: profile) } catch let e as SyncError { throw ToolError.usage(e.message) }
        if a.has("--schema") {
            for m in target.migrations { Console.out("-- migration \(m.id)\n\(m.sql)\n\n") }
            return 0
        }
        try Common.requireLog(a)
        try Common.checkApp(profile, directory: Common.logDirectory(a))
        let at = try Common.time(a, "--at")
        do {
            var sync = PostgresSync(logDirectory: Common.logDirectory(a), profile: profile,
                                    psql: try Psql(conninfo: a.value("--postgres") ?? ""), asOf: at ?? Common.now())
            sync.asOfGiven = at != nil
            sync.rebuild = a.has("--rebuild")
            sync.partitions = Common.partitions
            if a.has("--init") {
                for id in try sync.initialize() { Console.err("replay-tool sync: applied migration \(id)") }
            }
            let report = try sync.run()
            print(report, format: format)
            return 0
        } catch let e as SyncError {
            throw e.isUsage ? ToolError.usage(e.message) : ToolError.input(e.message)
        }
    }

    static func print(_ r: PostgresSync.Report, format: OutputFormat) {
        for (i, s) in r.skipped.enumerated() {
            if i == 20 { Console.err("replay-tool sync: … and \(r.skipped.count - 20) more (all in ledger_sync_skipped)"); break }
            Console.err("replay-tool sync: skipped user '\(OneLine.escaped(s.user))': \(s.reason)")
        }
        let c = r.checkpoint
        switch format {
        case .json, .jsonl:
            Console.out(JSON.object([
                ("target", .string(r.target.rawValue)), ("table", .string(r.target.table)),
                ("position", .int(Int(c.position))), ("previousPosition", r.previous.map { .int(Int($0.position)) } ?? .null),
                ("chainHash", .string(c.chainHash)), ("asOf", .time(c.asOf)), ("full", .bool(r.full)), ("upToDate", .bool(r.upToDate)),
                ("usersExamined", .int(r.usersExamined)), ("inserted", .int(r.inserted)), ("updated", .int(r.updated)),
                ("deleted", .int(r.deleted)),
                ("skipped", .array(r.skipped.map { .object([("user", .string($0.user)), ("reason", .string($0.reason))]) })),
            ]).rendered + "\n")
        case .table, .csv:
            let was = r.previous.map { "\($0.position)" } ?? "none"
            let rows: [[String]] = [
                ["target", "\(r.target.rawValue) (\(r.target.table))"],
                ["position", "\(c.position) (was \(was))\(r.upToDate ? ", up to date: nothing written" : "")"],
                ["asOf", c.asOf.description],
                ["examined", "\(r.usersExamined) user(s)\(r.full ? " (every user: \(r.previous == nil ? "first sync" : "rebuild"))" : "")"],
                ["written", "\(r.inserted) inserted, \(r.updated) updated, \(r.deleted) deleted"],
                ["skipped", "\(r.skipped.count)"],
            ]
            Console.out(TextTable(headers: ["field", "value"], rows: rows).aligned)
        }
    }
}
