import Projections
import SubscriptionDomain

/// How the report cuts its span into buckets so that every chart stays readable: the finest
/// width that keeps a chart to a few dozen bars (a week for a few months, a month for a few
/// years, then quarters and years), whatever the span, so a report as of 2199 draws years, not
/// nine thousand empty weeks.
public enum ReportSpan {
    /// The most buckets of the stock, trial and churn charts (a year of weeks).
    static let fineLimit = 60
    /// The most buckets of the revenue charts and the retention table (three years of months).
    static let coarseLimit = 36

    /// The widths for `[from, to)`: `fine` for the stock, trial and churn charts, `coarse` for
    /// revenue and retention.
    public static func widths(from: Timestamp, to: Timestamp) -> (fine: SeriesGranularity, coarse: SeriesGranularity) {
        (pick([.week, .month, .quarter, .year], from, to, fineLimit), pick([.month, .quarter, .year], from, to, coarseLimit))
    }

    static func pick(_ widths: [SeriesGranularity], _ from: Timestamp, _ to: Timestamp, _ limit: Int) -> SeriesGranularity {
        widths.first { by in SeriesBuckets(by: by, from: min(from, to), to: to).map { $0.count <= limit } ?? false } ?? widths.last!
    }

    static let nanosPerDay: Int64 = 86_400_000_000_000

    /// The calendar period holding `t`, as a tick label: the Monday starting its week
    /// (`2026-01-05`), `2026-01`, `2026 Q1`, `2026`, or the day.
    public static func label(_ t: Timestamp, _ by: SeriesGranularity) -> String {
        let ns = t.nanoseconds
        var d = ns >= 0 ? ns / nanosPerDay : (ns + 1) / nanosPerDay - 1
        if by == .week { d -= ((d + 3) % 7 + 7) % 7 }   // 1970-01-01 was a Thursday
        let (y, m, day) = Timestamp.civil(days: Int(d))
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        switch by {
        case .day, .week: return "\(y)-\(two(m))-\(two(day))"
        case .month: return "\(y)-\(two(m))"
        case .quarter: return "\(y) Q\((m - 1) / 3 + 1)"
        case .year: return "\(y)"
        }
    }

    /// The bucket's unit in a sentence: "week", "month", "quarter", "year", "day".
    public static func unit(_ by: SeriesGranularity) -> String { by.rawValue }

    /// The horizontal axis' label for buckets of `by`.
    static func axis(_ by: SeriesGranularity) -> String {
        by == .week ? "week (UTC, weeks start Monday)" : "\(by.rawValue) (UTC)"
    }
}
