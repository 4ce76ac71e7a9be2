import Foundation
import EventStore
import SubscriptionDomain
import Projections
import ProjectionStorage
import Platform
import Reports

/// Shared option specs and helpers for the commands.
enum Common {
    static let log = OptionSpec(name: "--log", value: "DIR", help: "the log's folder (default: ./ledger)")
    static let profile = OptionSpec(name: "--profile", value: "NAME|FILE", help: "a built-in profile or a profile JSON file (default: handz)")
    static let format = OptionSpec(name: "--format", value: "table|json|csv", help: "output format (default: table)")
    /// `--format` for commands whose output is rows (lists, series): JSON Lines too.
    static let rowFormatOption = OptionSpec(name: "--format", value: "table|json|csv|jsonl", help: "output format (default: table; jsonl: one JSON object a line)")
    /// `--format` for commands that print a table or JSON only.
    static let tableOrJSON = OptionSpec(name: "--format", value: "table|json", help: "output format (default: table)")
    static let at = OptionSpec(name: "--at", value: "TIME", help: "as of this instant: RFC 3339, now, today, yesterday or -7d (default: now)")
    /// `--log` for the commands that answer over several partition logs of one ledger.
    static let logs = OptionSpec(name: "--log", value: "DIR", help: "the log's folder (default: ./ledger); repeated: partition logs of one ledger, answered as one", repeatable: true)
    static let query = [logs, profile, format, at]
    /// The options of a query whose output is rows (`--format` with jsonl).
    static let rowQuery = [logs, profile, rowFormatOption, at]

    static func logDirectory(_ a: ParsedArguments) -> String { a.value("--log") ?? "ledger" }

    /// The clock: `REPLAY_TOOL_NOW` (an RFC 3339 instant, for reproducible demos and tests) or the system's.
    static func now() -> Timestamp {
        if let fixedNow { return fixedNow }
        return Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
    }

    /// `REPLAY_TOOL_NOW`, read once (a server asks the clock at every request).
    private static let fixedNow: Timestamp? = ProcessInfo.processInfo.environment["REPLAY_TOOL_NOW"].flatMap { Timestamp.parse($0) }

    /// Refuses a `--user` the log could never hold (empty, over 65,535 bytes, a control character): exit 2.
    static func checkUser(_ user: String) throws {
        do { try ValueRanges.checkUser(user, "--user") } catch { throw ToolError.usage(error.reason.replacingOccurrences(of: "field '--user'", with: "--user")) }
    }

    /// Refuses a `REPLAY_TOOL_NOW` that is not an RFC 3339 instant within the accepted range (a
    /// clock silently falling back to the system's would make a "reproducible" run not so).
    static func checkFixedClock() throws {
        guard let fixed = ProcessInfo.processInfo.environment["REPLAY_TOOL_NOW"] else { return }
        switch ValueRanges.time(fixed) {
        case .success: return
        case .failure(.notRFC3339): throw ToolError.usage("REPLAY_TOOL_NOW '\(fixed)' is not an RFC 3339 instant (e.g. 2026-02-06T12:00:00Z)")
        case .failure(.outOfRange): throw ToolError.usage("REPLAY_TOOL_NOW '\(fixed)' is out of range (\(ValueRanges.timesText))")
        }
    }

    /// An instant option (`--at`, `--from`, `--to`, `--as-known-at`): RFC 3339 within the accepted
    /// range, or a form people type (`now`, `today`, `yesterday`, `-7d`: `TypedInstant`).
    static func time(_ a: ParsedArguments, _ name: String) throws -> Timestamp? {
        guard let v = a.value(name) else { return nil }
        if let t = TypedInstant.relative(v, now: now()) {
            guard ValueRanges.times.contains(t) else { throw ToolError.usage("\(name) '\(v)' falls out of range (\(ValueRanges.timesText))") }
            return t
        }
        switch ValueRanges.time(v) {
        case .success(let t): return t
        case .failure(.notRFC3339): throw ToolError.usage("\(name) '\(v)' is not \(TypedInstant.formsText)")
        case .failure(.outOfRange): throw ToolError.usage("\(name) '\(v)' is out of range (\(ValueRanges.timesText))")
        }
    }

    /// A whole-number option, or nil if it is not given: ASCII digits only (no sign, space,
    /// fraction, exponent or hex), within `range`; anything else is a usage error, never a default.
    static func number(_ a: ParsedArguments, _ name: String, in range: ClosedRange<UInt64>) throws -> UInt64? {
        guard let v = a.value(name) else { return nil }
        guard v.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = UInt64(v), range.contains(n) else {
            throw ToolError.usage("\(name) '\(v)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// `--partition p/N`, checked at the door (N from 1 to `StreamPartition.maxCount`, p below N).
    static func partition(_ a: ParsedArguments) throws -> StreamPartition? {
        guard let v = a.value("--partition") else { return nil }
        switch StreamPartition.parse(v) {
        case .success(let p): return p
        case .failure(let e): throw ToolError.usage("--partition \(e.message)")
        }
    }

    static func at(_ a: ParsedArguments) throws -> Timestamp { try time(a, "--at") ?? now() }

    /// The instant analytics fold up to: the end of the window if one is given, else `--at`. The
    /// instant bounds everything: a `--to` after an explicit `--at` is a usage error.
    static func windowEnd(_ a: ParsedArguments) throws -> Timestamp {
        guard let to = try time(a, "--to") else { return try at(a) }
        if let at = try time(a, "--at"), to > at {
            throw ToolError.usage("--to \(to) is after --at \(at): nothing after --at is read (leave out --at, or end the window by it)")
        }
        return to
    }

    /// `--format` of a command whose output is rows (a list, a series): JSON Lines too.
    static func rowFormat(_ a: ParsedArguments) throws -> OutputFormat { try format(a, allowed: [.table, .json, .csv, .jsonl]) }

    /// `--format` of `counts`, `funnel` or `revenue` without `--by`: one object, so no jsonl (that is for a series).
    static func plainFormat(_ a: ParsedArguments) throws -> OutputFormat {
        if a.value("--format") == "jsonl" { throw ToolError.usage("--format jsonl prints rows: a series (--by day|week|month|quarter|year) has them; this report is one object (--format json)") }
        return try format(a)
    }

    static func format(_ a: ParsedArguments, allowed: [OutputFormat] = [.table, .json, .csv]) throws -> OutputFormat {
        let v = a.value("--format") ?? "table"
        guard let f = OutputFormat(rawValue: v), allowed.contains(f) else {
            throw ToolError.usage("--format '\(v)' is not one of \(allowed.map(\.rawValue).joined(separator: ", "))")
        }
        return f
    }

    /// A built-in profile by name, or a profile file by path.
    static func profile(_ name: String?) throws -> Profile {
        let name = name ?? "handz"
        if let p = Profile.named(name) { return p }
        guard PlatformDirectory.exists(name) else {
            // A name that reads as a path is a missing file (exit 1), not an unknown name (exit 2).
            if name.contains("/") || name.hasSuffix(".json") { throw ToolError.input("\(name): no such profile file") }
            throw ToolError.usage("unknown profile '\(name)' (built-in: \(Profile.builtIn.map(\.name).joined(separator: ", ")); or a path to a profile JSON file)")
        }
        let data: [UInt8]
        do {
            guard !PlatformDirectory.isDirectory(name), let read = try PlatformDirectory.readFile(name) else { throw ToolError.input("\(name): cannot read") }
            data = read
        } catch let e as any LocatedError {
            throw ToolError.input("\(name): cannot read: \(e.description)")
        }
        do {
            return try Profile.decode(json: data)
        } catch {
            throw ToolError.input("\(name): \(error)")
        }
    }

    /// Refuses a profile of another app than the one the log holds (its file `app`, written by
    /// the first import): its products would be read under the wrong catalog (exit 2).
    static func checkApp(_ profile: Profile, directory: String) throws {
        guard let declared = try EventLog.declaredApp(directory: directory) else { return }
        guard let app = Profile.appName(inDeclaration: declared) else {
            throw ToolError.input("\(directory)/\(EventLog.appFileName): not an app declaration (expected one line 'app NAME')")
        }
        guard app == profile.app else {
            throw ToolError.usage("\(directory) holds \(app)'s events (its file \(EventLog.appFileName)); profile '\(profile.name)' is for \(profile.app): use a profile of \(app) (replay-tool profiles)")
        }
    }

    /// Refuses an output name before a command works for it: a symbolic link, folder, FIFO,
    /// device or socket, or a name in a missing folder (exit 1, one line).
    static func checkOutput(_ path: String) throws {
        do { try OutputFile.check(path) } catch let e as any LocatedError { throw ToolError.input(e.description) }
    }

    /// Writes `bytes` as the file `path` (atomically: a temporary file renamed over it).
    static func writeOutput(_ bytes: [UInt8], to path: String, what: String) throws {
        do {
            try OutputFile.write(bytes, to: path)
        } catch let e as any LocatedError {
            throw ToolError.input("cannot write \(what): \(e.description)")
        }
    }

    /// The log named by `--log`; `indexes: false` for a reader that scans instead of looking up streams or ids.
    static func openLog(_ a: ParsedArguments, directory: String? = nil, access: EventLog.Access = .read, indexes: Bool = true,
                        checksLastSegment: Bool = true) throws -> EventLog {
        let dir = directory ?? logDirectory(a)
        if access == .read { try requireLog(dir) }
        var options = EventLog.Options()
        options.indexes = indexes
        options.checksLastSegmentAtOpen = checksLastSegment
        options.secondaryKeys = Replay.secondaryKeys
        // How many index entries a writer holds before it writes a run file (tests make it small).
        if let n = ProcessInfo.processInfo.environment["REPLAY_TOOL_INDEX_FLUSH_RECORDS"].flatMap({ Int($0) }), n > 0 {
            options.indexFlushThreshold = n
        }
        if ProcessInfo.processInfo.environment["REPLAY_TOOL_NOW"] != nil {
            let fixed = now()
            options.clock = { fixed.nanoseconds / 1_000_000 }
        }
        return try EventLog(directory: dir, access: access, options: options)
    }

    /// Refuses a `--log` folder that holds no log, before anything reads it.
    static func requireLog(_ a: ParsedArguments) throws { try requireLog(logDirectory(a)) }

    /// Refuses a folder that holds no log, before anything reads it.
    static func requireLog(_ dir: String) throws {
        if !PlatformDirectory.exists(dir + "/segments") {
            throw ToolError.input("\(dir): no log here (import something first, or pass --log DIR)")
        }
        // A partition declaration that does not read is damage to every command, as to import and verify.
        _ = try EventLog.declaredPartition(directory: dir)
    }

    /// The read models as of `asOf`: from the projection kept in DIR/projections (caught up with
    /// the log first), or a full rebuild when a window or sandbox events are asked for.
    /// How many partitions a fold is split in: one per core, at most 8.
    static var partitions: Int { max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) }

    static func replay(_ a: ParsedArguments, asOf: Timestamp, profile: Profile? = nil, directory: String? = nil) throws -> LedgerSnapshot {
        let directory = directory ?? logDirectory(a)
        try requireLog(directory)   // the projection or the rebuild opens the log itself
        let profile = try profile ?? Common.profile(a.value("--profile"))
        try checkApp(profile, directory: directory)
        let from = try time(a, "--from"), to = try time(a, "--to")
        // As known at an earlier instant: a fold of the log's prefix then (the kept projection is of the head).
        let known = try knownThrough(a, directory: directory)
        if from == nil && to == nil && !a.has("--include-sandbox") && known == nil {
            var store = ProjectionStore(logDirectory: directory, profile: profile)
            store.partitions = partitions
            return try store.snapshot(asOf: asOf)
        }
        var options = ReplayOptions(profile: profile, asOf: asOf)
        options.from = from
        options.to = to
        options.includeSandbox = a.has("--include-sandbox")
        options.partitions = partitions
        return try Replay.run(directory: directory, options: options, through: known)
    }
}
