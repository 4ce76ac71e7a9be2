import Foundation
import Projections
import ProjectionStorage
import Reports
import SubscriptionDomain

/// `report --compare-known-at T`: the report's headline numbers as known at T and now.
extension ReportCommand {
    static let compareKnownAt = OptionSpec(name: "--compare-known-at", value: "TIME",
                                           help: "add each headline number as known at TIME (the records the log held then) beside now, and the late records that changed it")
    static let format = OptionSpec(name: "--format", value: "html|json", help: "html (default), or json: the --compare-known-at comparison alone")

    /// The comparison asked by `--compare-known-at` over every `--log` (nil without it), `now`
    /// being each log's snapshot as of the report's instant.
    static func restatement(_ a: ParsedArguments, at: Timestamp, profile: Profile, dirs: [String], now: [LedgerSnapshot]) throws -> Restatement? {
        guard let knownAt = try Common.time(a, "--compare-known-at") else { return nil }
        typealias Reports = (counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport)
        func reports(_ s: [LedgerSnapshot]) -> Reports {
            (LedgerSnapshot.mergingCounts(s.map { $0.counts() }), FunnelReport.merging(s.map { $0.funnel() }), RevenueReport.merging(s.map { $0.revenue() }))
        }
        var then: [LedgerSnapshot] = [], late: [KnownAt.LateRecord] = []
        for (dir, current) in zip(dirs, now) {
            let position = try KnownAt.position(directory: dir, at: knownAt)
            var options = ReplayOptions(profile: profile, asOf: at)
            options.partitions = Common.partitions
            then.append(try Replay.run(directory: dir, options: options, through: min(position, current.headPosition)))
            late += try KnownAt.lateRecords(directory: dir, after: position, through: current.headPosition, effectiveBy: at)
        }
        // Each shown user's reports then and now, from the snapshots cut down to the shown users first.
        let shown = Array(Set(late.map(\.user)).sorted().prefix(Restatement.shownUsers))
        let keep = Set(shown)
        let (thenShown, nowShown) = (then.map { $0.restricted(to: keep) }, now.map { $0.restricted(to: keep) })
        let users = shown.map { u in
            (user: u, then: reports(thenShown.map { $0.restricted(to: [u]) }), now: reports(nowShown.map { $0.restricted(to: [u]) }))
        }
        return Restatement(knownAt: knownAt, then: reports(then), now: reports(now), late: late, users: users)
    }

    /// Usage errors of `--compare-known-at` and `--format`, before anything is read.
    static func checkRestatementOptions(_ a: ParsedArguments) throws -> Bool {
        let json: Bool
        switch a.value("--format") ?? "html" {
        case "html": json = false
        case "json": json = true
        case let f: throw ToolError.usage("--format '\(f)' is not one of html, json")
        }
        guard a.has("--compare-known-at") else {
            if json { throw ToolError.usage("--format json prints the --compare-known-at comparison: give --compare-known-at TIME") }
            return false
        }
        if a.has("--from") || a.has("--to") { throw ToolError.usage("--compare-known-at compares the report as of an instant: leave out --from/--to") }
        if a.has("--as-known-at") { throw ToolError.usage("--compare-known-at compares with what is known now: leave out --as-known-at") }
        return json
    }
}
