import Foundation
import EventStore
import Projections
import SubscriptionDomain

extension Common {
    /// Whether a report is asked as of now with the default options (no window, no sandbox, no
    /// past `--at`): then it is answered from the report summary kept next to the projection.
    /// `REPLAY_TOOL_REPORT_SUMMARY=off` folds as for any other instant (to compare, or to measure).
    static func asksNow(_ a: ParsedArguments) -> Bool {
        !a.has("--from") && !a.has("--to") && !a.has("--include-sandbox") && (a.value("--at").map { $0 == "now" } ?? true)
            && ProcessInfo.processInfo.environment["REPLAY_TOOL_REPORT_SUMMARY"] != "off"
    }

    /// One report per `--log` as of now: from the log's report summary (brought up to the log's
    /// head and the instant), or, where the summary cannot give it (`fromSummary` answers nil) or
    /// the question is not "as of now", from a snapshot as `reports` makes it.
    static func nowReports<R>(_ a: ParsedArguments, notifications: Bool = false,
                              fromSummary: (ReportSummary, Timestamp, Profile) -> R?,
                              fromSnapshot: (LedgerSnapshot) throws -> R) throws -> [R] {
        guard asksNow(a) else { return try reports(a, asOf: try windowEnd(a), fromSnapshot) }
        let now = now()
        let profile = try Common.profile(a.value("--profile"))
        return try logDirectories(a).map { directory in
            try requireLog(directory)
            try checkApp(profile, directory: directory)
            let store = ProjectionStore(logDirectory: directory, profile: profile)
            let summary = try store.summary(asOf: now, notifications: notifications).summary
            if let r = fromSummary(summary, now, profile) { return r }
            return try fromSnapshot(try replay(a, asOf: now, profile: profile, directory: directory))
        }
    }
}
