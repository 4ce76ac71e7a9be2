import SubscriptionDomain

/// The width of a series' buckets: UTC days, weeks starting on Monday, calendar months,
/// quarters (January, April, July, October) or years.
public enum SeriesGranularity: String, Sendable, CaseIterable {
    case day, week, month, quarter, year

    /// The names, as usage errors list them: `day, week, month, quarter, year`.
    public static let namesText = allCases.map(\.rawValue).joined(separator: ", ")
}

/// The buckets of a series over `[from, to)`: calendar-aligned (UTC), the first starting at
/// `from` and the last ending at `to`, so that the buckets together cover exactly the window
/// the plain reports use.
public struct SeriesBuckets: Sendable, Equatable {
    public let by: SeriesGranularity
    public let from: Timestamp
    public let to: Timestamp
    /// `from`, every calendar boundary strictly inside, then `to`: bucket i is `[bounds[i], bounds[i+1])`.
    public let bounds: [Timestamp]

    /// The most buckets a series may have (27 years of days): more is a usage error, not an allocation.
    public static let maximumCount = 10_000

    static let nanosPerDay: Int64 = 86_400_000_000_000

    /// Nil when the window holds more than `maximumCount` buckets; no bucket when `from >= to`
    /// (an empty series: a `--to` before the log's first event).
    public init?(by: SeriesGranularity, from: Timestamp, to: Timestamp) {
        self.by = by
        self.from = from
        self.to = to
        guard from < to else { bounds = [from]; return }
        var b = [from]
        var t = Self.nextBoundary(after: from, by: by)
        while t < to {
            b.append(t)
            guard b.count <= Self.maximumCount else { return nil }
            t = Self.nextBoundary(after: t, by: by)
        }
        b.append(to)
        bounds = b
    }

    public var count: Int { bounds.count - 1 }
    public func start(_ i: Int) -> Timestamp { bounds[i] }
    public func end(_ i: Int) -> Timestamp { bounds[i + 1] }

    /// The bucket holding instant `t` (`start <= t < end`), or nil outside `[from, to)`.
    public func index(of t: Timestamp) -> Int? {
        guard t >= from, t < to else { return nil }
        // The last bound at or before t.
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if bounds[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The day (since 1970-01-01, UTC) holding `t`.
    package static func day(of t: Timestamp) -> Int64 { t.nanoseconds.quotientRoundingDown(nanosPerDay) }

    /// Midnight UTC starting day `d` (saturating).
    package static func midnight(_ d: Int64) -> Timestamp { Timestamp(nanoseconds: d.multipliedSaturated(by: nanosPerDay)) }

    /// The first bucket boundary after `t`: the next midnight, Monday midnight, or first of a month, quarter or year.
    static func nextBoundary(after t: Timestamp, by: SeriesGranularity) -> Timestamp {
        let d = day(of: t)
        switch by {
        case .day:
            return midnight(d &+ 1)
        case .week:
            // 1970-01-01 was a Thursday: (d + 3) mod 7 is 0 on Mondays.
            let sinceMonday = ((d + 3) % 7 + 7) % 7
            return midnight(d - sinceMonday + 7)
        case .month, .quarter, .year:
            guard d < 3_000_000, d > -800_000 else { return Timestamp(nanoseconds: .max) }
            let (y, m, _) = Timestamp.civil(days: Int(d))
            // The first month of the next bucket, counted from January of year y (13 = next January).
            let first = by == .month ? m + 1 : by == .quarter ? (m - 1) / 3 * 3 + 4 : 13
            let next = first > 12 ? Timestamp.days(year: y + 1, month: first - 12, day: 1) : Timestamp.days(year: y, month: first, day: 1)
            return midnight(Int64(next))
        }
    }
}
