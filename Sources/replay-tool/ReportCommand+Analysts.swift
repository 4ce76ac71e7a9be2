import Projections
import SubscriptionDomain

extension ReportCommand {
    /// The analysts' metrics of each bucket of the page's fine series, as `metrics --by` answers
    /// them (each `--log`'s model, added), for the MRR movement, trial split, refund rate and ARPU sections.
    static func analystWindows(_ a: ParsedArguments, _ buckets: SeriesBuckets, at: Timestamp, profile: Profile) throws -> [AnalystMetrics] {
        guard buckets.count > 0 else { return [] }
        let bounds = buckets.bounds.map(\.nanoseconds)
        var windows: [AnalystBreakdown] = []
        // The page's profile (the first --profile), not the one a rule change compares with.
        for model in try MetricsCommand.models(a, profile: profile) {
            let part = model.metrics(bounds: bounds, asOf: at.nanoseconds, within: 7 * 86_400_000_000_000, lifetime: 30 * 86_400_000_000_000, segment: nil)
            windows = windows.isEmpty ? part : zip(windows, part).map { $0.adding($1) }
        }
        return windows.map(\.total)
    }
}
