import Foundation
import Projections
import ProjectionStorage
import SubscriptionDomain

/// `revenue --from/--to` and the `revenue`/`funnel` series read from each `--log`'s time index,
/// where it holds the answer (a window starting at a midnight or at the log's start; money that
/// cannot saturate); otherwise the series pass, as before.
extension SeriesCommands {
    /// The index of each `--log` (built or brought up to its head), with the checks a series pass makes, in its order.
    static func indexes(_ a: ParsedArguments) throws -> [(store: ProjectionStore, index: TimeIndex, profile: Profile)] {
        try Common.logDirectories(a).map { directory in
            try Common.requireLog(directory)
            let profile = try Common.profile(a.value("--profile"))
            try Common.checkApp(profile, directory: directory)
            let to = try Common.windowEnd(a)
            if a.has("--by"), let from = try Common.time(a, "--from"), from >= to {
                throw ToolError.usage("--from \(from) is not before the series' end \(to)")
            }
            var store = ProjectionStore(logDirectory: directory, profile: profile)
            store.partitions = Common.partitions
            store.timeIndexWithSandbox = a.has("--include-sandbox")
            return (store, try store.timeIndex().index, profile)
        }
    }

    /// `revenue --from/--to` from the indexes: nil when one of them cannot give it (then every log folds).
    static func indexedWindowRevenue(_ a: ParsedArguments) throws -> RevenueReport? {
        // A value in error is left to the series pass, which reports it in its order.
        guard Common.usesTimeIndex(a), case .success(let from) = Result(catching: { try Common.time(a, "--from") }),
              TimeIndex.readsWindow(startingAt: from) else { return nil }
        let logs = try indexes(a)
        let to = try Common.windowEnd(a)
        var parts: [RevenueReport] = []
        for (store, index, profile) in logs {
            guard let r = try store.answer(from: index, { try $0.revenue(from: from, to: to, profile: profile) }).answer else { return nil }
            parts.append(r)
        }
        return RevenueReport.merging(parts)
    }

    /// The series asked for from the indexes (the buckets a series pass makes), or nil when one of them cannot give it.
    static func indexedSeries(_ a: ParsedArguments, funnel: Bool) throws -> LedgerSeries? {
        let name = a.value("--by") ?? "week"
        guard let by = SeriesGranularity(rawValue: name) else {
            throw ToolError.usage("--by '\(name)' is not one of \(SeriesGranularity.namesText)")
        }
        // A value in error is left to the series pass, which reports it in its order.
        guard Common.usesTimeIndex(a), case .success(let from) = Result(catching: { try Common.time(a, "--from") }),
              TimeIndex.readsWindow(startingAt: from) else { return nil }
        let logs = try indexes(a)
        let to = try Common.windowEnd(a)
        let start = from ?? logs.compactMap { $0.index.firstEvent(upTo: to) }.min()
        guard let buckets = SeriesBuckets(by: by, from: min(start ?? to, to), to: to) else {
            throw ToolError.usage("--by \(name) from \(start ?? to) to \(to) makes more than \(SeriesBuckets.maximumCount) buckets (narrow --from/--to or use a wider --by)")
        }
        var parts: [LedgerSeries] = []
        for (store, index, profile) in logs {
            guard let s = try store.answer(from: index, { try $0.series(buckets, from: from, funnel: funnel, profile: profile) }).answer else { return nil }
            parts.append(s)
        }
        return LedgerSeries.merging(parts)
    }
}
