import Projections
import SubscriptionDomain

/// The JSON fields of the plain reports, shared by the plain commands and each bucket of a series
/// (CONTRACT.md §5.1: a bucket holds the fields of the plain report for it).
public enum ReportJSON {
    public static func counts(_ counts: [String: Int]) -> [(String, JSON)] {
        LedgerSnapshot.metricNames.map { ($0, .int(counts[$0] ?? 0)) }
    }

    public static func steps(_ steps: [FunnelReport.Step]) -> JSON {
        .array(steps.map { .object([("name", .string($0.name)), ("users", .int($0.users)), ("rate", .double($0.rate))]) })
    }

    public static func funnel(_ report: FunnelReport) -> [(String, JSON)] {
        let rate = Rates.trialConversion(started: report.trialsStarted, converted: report.trialsConverted)
        return [
            ("steps", steps(report.steps)),
            ("trial", .object([("started", .int(report.trialsStarted)), ("converted", .int(report.trialsConverted)), ("rate", .double(rate))])),
            ("byContext", .object(report.byContext.sorted { $0.key < $1.key }.map { ($0.key, steps($0.value)) })),
            ("cohorts", .array(report.cohorts.map { .object([("week", .string($0.week)), ("started", .int($0.started)), ("converted", .int($0.converted))]) })),
        ]
    }

    public static func revenue(_ r: RevenueReport) -> [(String, JSON)] {
        [
            ("currencies", .array(r.lines.map { .object([("currency", .string($0.currency)), ("gross", .string($0.gross.description)),
                                                         ("refunded", .string($0.refunded.description)), ("net", .string($0.net.description)), ("mrr", .string($0.mrr.description))]) })),
            ("activeSubscriptions", .int(r.activeSubscriptions)), ("activeTrials", .int(r.activeTrials)),
            ("churnedSubscribers", .int(r.churnedSubscribers)), ("churnRate", .double(r.churnRate)), ("trialConversionRate", .double(r.trialConversionRate)),
        ]
    }

    public static func retention(_ r: LedgerSeries.Retention) -> JSON {
        .object([
            ("subscribers", .int(r.subscribers)),
            ("periods", .array(r.periods.map { .object([("period", .int($0.period)), ("measured", .int($0.measured)),
                                                        ("retained", .int($0.retained)), ("rate", .double($0.rate))]) })),
        ])
    }

    /// `{"by":…,"from":…,"to":…,"buckets":[{"start":…,"end":…,…}]}` with `fields` of each bucket.
    public static func series(_ s: LedgerSeries, _ fields: (LedgerSeries.Bucket) -> [(String, JSON)]) -> JSON {
        .object([
            ("by", .string(s.buckets.by.rawValue)), ("from", .time(s.buckets.from)), ("to", .time(s.buckets.to)),
            ("buckets", .array(s.rows.map { .object([("start", .time($0.start)), ("end", .time($0.end))] + fields($0)) })),
        ])
    }

    public static func countsSeries(_ s: LedgerSeries) -> JSON { series(s) { counts($0.counts) } }
    public static func revenueSeries(_ s: LedgerSeries) -> JSON { series(s) { revenue($0.revenue) } }
    public static func funnelSeries(_ s: LedgerSeries) -> JSON { series(s) { funnel($0.funnel) + [("retention", retention($0.retention))] } }
}
