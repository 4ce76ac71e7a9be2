import Foundation
import Projections
import ProjectionStorage
import Reports
import SubscriptionDomain

/// `report` read from each `--log`'s time index: counts, the funnel, revenue, the notification
/// schedule's counts and the charts' series, as the fold gives them (the page's figures are the
/// JSON of counts/funnel/revenue/notifications and of the series). A second `--profile`'s
/// rule-change diff still folds both rule sets (at the same time). Nil when an index cannot give
/// a part (a window starting within a day; money that may saturate): then the report folds as before.
extension ReportCommand {
    static func indexedInput(_ a: ParsedArguments, at: Timestamp, profile: Profile, names: [String], other: Profile?) throws -> ReportInput? {
        let from = try Common.time(a, "--from"), to = try Common.time(a, "--to")
        // A comparison with what was known at T needs the folds of now (`restatement`).
        guard Common.usesTimeIndex(a), TimeIndex.readsWindow(startingAt: from), !a.has("--compare-known-at") else { return nil }
        let window = from != nil || to != nil
        let dirs = try Common.logDirectories(a)
        var counts: [[String: Int]] = [], funnels: [FunnelReport] = [], revenues: [RevenueReport] = [], summaries: [NotificationSummary] = []
        var logs: [(store: ProjectionStore, index: TimeIndex)] = []
        for dir in dirs {
            try Common.requireLog(dir)
            try Common.checkApp(profile, directory: dir)
            var store = ProjectionStore(logDirectory: dir, profile: profile)
            store.partitions = Common.partitions
            let index = try store.timeIndex().index
            let parts = try store.answer(from: index) { i -> (RevenueReport?, FunnelReport?, [String: Int], NotificationSummary) in
                (window ? try i.revenue(from: from, to: at, profile: profile) : try i.revenue(at: at, profile: profile),
                 window ? try i.funnel(at: at, from: from, to: to) : try i.funnel(at: at),
                 try i.counts(at: at, from: from, to: to), try i.notificationSummary(at: at))
            }.answer
            guard let revenue = parts.0, let funnel = parts.1 else { return nil }
            revenues.append(revenue)
            funnels.append(funnel)
            counts.append(parts.2)
            summaries.append(parts.3)
            logs.append((store, index))
        }
        let start = from ?? logs.compactMap { $0.index.firstEvent(upTo: at) }.min()
        let (fineBy, coarseBy) = ReportSpan.widths(from: start ?? at, to: at)
        var series: [[LedgerSeries]] = [[], []]
        for (n, by) in [fineBy, coarseBy].enumerated() {
            guard let buckets = SeriesBuckets(by: by, from: min(start ?? at, at), to: at) else {
                throw ToolError.usage("the log spans more than \(SeriesBuckets.maximumCount) \(fineBy)s before \(at)")
            }
            for (store, index) in logs {
                guard let s = try store.answer(from: index, { try $0.series(buckets, from: from, funnel: true, profile: profile) }).answer else { return nil }
                series[n].append(s)
            }
        }
        guard let fine = LedgerSeries.merging(series[0]), let coarse = LedgerSeries.merging(series[1]) else { return nil }
        var comparison: (profile: String, differences: [PlanDifference])?
        if let other {
            comparison = (names[1], try Common.differences(a, profile, other, at: at))
        }
        var input = ReportInput(
            logs: dirs, profile: names.first ?? profile.name, instant: at,
            headPosition: logs[0].index.position, headHash: logs[0].index.chainHash.description,
            counts: LedgerSnapshot.mergingCounts(counts), funnel: FunnelReport.merging(funnels), revenue: RevenueReport.merging(revenues),
            notifications: NotificationSummary.merging(summaries), fine: fine, coarse: coarse, comparison: comparison)
        input.from = from
        input.analysts = try analystWindows(a, fine.buckets, at: at, profile: profile)
        if dirs.count > 1 { input.partitionHeads = logs.map { ($0.index.position, $0.index.chainHash.description) } }
        return input
    }
}
