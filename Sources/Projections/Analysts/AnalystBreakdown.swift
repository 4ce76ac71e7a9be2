import SubscriptionDomain

/// The metrics of one window: of all users, and per value of the segment asked (if any).
public struct AnalystBreakdown: Sendable, Equatable {
    public var total = AnalystMetrics()
    /// Per segment value, when a segment was asked (each value's figures sum to `total`'s).
    public var segments: [String: AnalystMetrics] = [:]

    public init() {}
}

extension AnalystBreakdown {
    /// Two partitions' breakdowns of the same window as one.
    public func adding(_ o: AnalystBreakdown) -> AnalystBreakdown {
        var r = self
        r.total = total.adding(o.total)
        for (k, m) in o.segments { r.segments[k] = (r.segments[k] ?? AnalystMetrics()).adding(m) }
        return r
    }
}
