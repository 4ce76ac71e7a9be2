import Foundation
import EventStore
import Projections
import ProjectionStorage
import SubscriptionDomain

extension Common {
    /// Whether a report is asked as of now with the default options (no window, no sandbox, no
    /// past `--at`): then it is answered from the report summary kept next to the projection.
    /// `REPLAY_TOOL_REPORT_SUMMARY=off` folds as for any other instant (to compare, or to measure).
    static func asksNow(_ a: ParsedArguments) -> Bool {
        readsSummary(a) && (a.value("--at").map { $0 == "now" } ?? true)
    }

    /// Whether the question has the options the report summary answers (no window, sandbox apart,
    /// not `--as-known-at`) and `REPLAY_TOOL_REPORT_SUMMARY` is not `off`.
    private static func readsSummary(_ a: ParsedArguments) -> Bool {
        !a.has("--from") && !a.has("--to") && !a.has("--include-sandbox") && !a.has("--as-known-at")
            && ProcessInfo.processInfo.environment["REPLAY_TOOL_REPORT_SUMMARY"] != "off"
    }

    /// Whether the notification schedule asked is read from the report summary as of now, each
    /// entry as of the instant asked (`ReportSummary.notifications(at:profile:)`): an instant up to
    /// now, the default options otherwise (no window, sandbox apart, not `--as-known-at`), and
    /// `REPLAY_TOOL_REPORT_SUMMARY` not `off`. An instant after now folds (the summary is not moved
    /// into the future).
    static func readsPastSchedule(_ a: ParsedArguments, now: Timestamp) throws -> Bool {
        try readsSummary(a) && windowEnd(a) <= now
    }

    /// One report per `--log` as of now: from the log's report summary (brought up to the log's
    /// head and the instant), or, where the summary cannot give it (`fromSummary` answers nil) or
    /// the question is not "as of now", from a snapshot as `reports` makes it. A profile with no
    /// summary kept whose time index is at hand (kept, or derived from one kept under another
    /// profile: a rule just changed) is answered from the index as of now instead, so that a
    /// changed rule is not a fold of every user. The notification schedule at an earlier instant
    /// is read from the summary as of now too (`readsPastSchedule`), `fromSummary` given that instant.
    static func nowReports<R>(_ a: ParsedArguments, notifications: Bool = false,
                              fromSummary: (ReportSummary, Timestamp, Profile) -> R?,
                              fromIndex: ((TimeIndex, IndexQuestion, Profile) throws -> R?)? = nil,
                              fromSnapshot: (LedgerSnapshot) throws -> R) throws -> [R] {
        let now = now()
        let pastSchedule = try notifications && !asksNow(a) && readsPastSchedule(a, now: now)
        guard asksNow(a) || pastSchedule else {
            guard let fromIndex, usesTimeIndex(a) else { return try reports(a, asOf: try windowEnd(a), fromSnapshot) }
            return try indexReports(a, fromIndex, fromSnapshot)
        }
        let instant = pastSchedule ? try windowEnd(a) : now
        let profile = try Common.profile(a.value("--profile"))
        return try logDirectories(a).map { directory in
            try requireLog(directory)
            try checkApp(profile, directory: directory)
            let store = ProjectionStore(logDirectory: directory, profile: profile)
            if let fromIndex, !notifications, usesTimeIndex(a), !store.keepsSummary {
                var indexed = store
                indexed.partitions = Common.partitions
                if indexed.timeIndexAtHand, let r = try indexed.answer({ try fromIndex($0, IndexQuestion(at: now), profile) }).answer { return r }
            }
            let summary = try store.summary(asOf: now, notifications: notifications).summary
            if let r = fromSummary(summary, instant, profile) { return r }
            return try fromSnapshot(try replay(a, asOf: instant, profile: profile, directory: directory))
        }
    }
}

/// What a report asks the time index: as of `at` (the window's end when one is given), events in `[from, to)`.
struct IndexQuestion {
    var at: Timestamp
    var from: Timestamp?
    var to: Timestamp?
    var hasWindow: Bool { from != nil || to != nil }
}

extension Common {
    /// Whether a report at another instant than now is read from the time index kept next to the
    /// projection (with `--include-sandbox`, the index that counts sandbox events too, a file of
    /// its own). `REPLAY_TOOL_TIME_INDEX=off` folds as before (to compare, or to measure).
    static func usesTimeIndex(_ a: ParsedArguments) -> Bool {
        !a.has("--as-known-at") && ProcessInfo.processInfo.environment["REPLAY_TOOL_TIME_INDEX"] != "off"
    }

    /// One report per `--log` from its time index (built when it does not match the log's head),
    /// or from a snapshot where the index cannot give it (`fromIndex` answers nil).
    static func indexReports<R>(_ a: ParsedArguments, _ fromIndex: (TimeIndex, IndexQuestion, Profile) throws -> R?,
                                _ fromSnapshot: (LedgerSnapshot) throws -> R) throws -> [R] {
        let question = IndexQuestion(at: try windowEnd(a), from: try time(a, "--from"), to: try time(a, "--to"))
        let profile = try Common.profile(a.value("--profile"))
        return try logDirectories(a).map { directory in
            try requireLog(directory)
            try checkApp(profile, directory: directory)
            var store = ProjectionStore(logDirectory: directory, profile: profile)
            store.partitions = Common.partitions
            store.timeIndexWithSandbox = a.has("--include-sandbox")
            if let r = try store.answer({ try fromIndex($0, question, profile) }).answer { return r }
            return try fromSnapshot(try replay(a, asOf: question.at, profile: profile, directory: directory))
        }
    }
}
