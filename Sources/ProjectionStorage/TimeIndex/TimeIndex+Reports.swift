import Projections
import SubscriptionDomain

// The reports from the index's sums: the same values a snapshot's `counts()`, `funnel()` and
// `revenue()` compute from every fold as of an instant (LedgerSnapshot, FunnelReport.swift,
// RevenueReport.swift), with sandbox events apart.

extension TimeIndex {
    /// Analytics counts as of `instant`; with `from` and `to`, only the events in `[from, to)`
    /// (a replay with that window as of `instant`, which is `to` when it is given).
    public func counts(at instant: Timestamp, from: Timestamp? = nil, to: Timestamp? = nil) throws -> [String: Int] {
        var out: [String: Int] = [:]
        for m in Metric.all { out[m.name] = 0 }
        for (k, key) in keys.enumerated() where key.kind == .metric {
            let end = try to.map { try value(k, at: min($0, instant), before: $0 <= instant) } ?? value(k, at: instant)
            let start = try from.map { try value(k, at: $0, before: true) } ?? 0
            // Counts only grow with the instant: an empty window (from at or after its end) counts nothing.
            let n = end &- start
            out[Metric.all[Int(key.number)].name] = from != nil && n < 0 ? 0 : Int(n)
        }
        return out
    }

    /// Counts per bucket of `buckets` (events in `[start, end)` of each).
    public func countsSeries(_ buckets: SeriesBuckets) throws -> [[String: Int]] {
        let metricKeys = keys.indices.filter { keys[$0].kind == .metric }
        let atBounds = try buckets.bounds.map { b in try metricKeys.map { try value($0, at: b, before: true) } }
        return (0..<buckets.count).map { i in
            var out: [String: Int] = [:]
            for m in Metric.all { out[m.name] = 0 }
            for (j, k) in metricKeys.enumerated() {
                out[Metric.all[Int(keys[k].number)].name] = Int(atBounds[i + 1][j] &- atBounds[i][j])
            }
            return out
        }
    }

    /// The earliest event at or before `instant` (a series' default start), if any.
    public func firstEvent(upTo instant: Timestamp) -> Timestamp? {
        firstEvent.flatMap { $0 <= instant ? $0 : nil }
    }

    /// The funnel as of `instant` over the whole log: the window without a start (`WindowSteps`'
    /// first chains, every view day), with every trial cohort.
    public func funnel(at instant: Timestamp) throws -> FunnelReport {
        try windowFunnel(day: TimeKey.beforeAnyDay + 1, end: instant, before: false)
    }

    /// Revenue as of `instant` over the whole log; nil when a sum of money may have saturated in
    /// a snapshot's order of summing (the caller folds as before).
    public func revenue(at instant: Timestamp, profile: Profile) throws -> RevenueReport? {
        guard moneyExact else { return nil }
        // The money flows and trials here; the stocks and MRR as a window's revenue reads them.
        var money: [TimeKey.Kind: [String: Money]] = [:]
        var holders: [TimeKey.Kind: Set<String>] = [:]
        var started = 0, converted = 0
        for k in [keyRange(.trialConverted).lowerBound..<keyRange(.adjustmentHolders).upperBound, keyRange(.mrrHolders)].joined() {
            let key = keys[k], v = try value(k, at: instant)
            guard v != 0 else { continue }
            switch key.kind {
            case .gross, .refunded, .adjustment: money[key.kind, default: [:]][key.name] = Money(micros: v)
            case .grossHolders, .refundedHolders, .adjustmentHolders, .mrrHolders: holders[key.kind, default: []].insert(key.name)
            case .cohortStarted: started &+= Int(v)
            case .trialConverted: converted = Int(v)
            default: continue
            }
        }
        // Take-home adjustments per currency held (a sum of zero included).
        var adjustments: [String: Money] = [:]
        for c in holders[.adjustmentHolders, default: []] { adjustments[c] = money[.adjustment]?[c] ?? .zero }
        let currencies = holders[.grossHolders, default: []].union(holders[.refundedHolders, default: []]).union(holders[.mrrHolders, default: []]).sorted()
        return Self.revenueReport(gross: money[.gross] ?? [:], refunded: money[.refunded] ?? [:], adjustment: adjustments,
                                  stocks: try stocks(at: instant), started: started, converted: converted,
                                  currencies: currencies, profile: profile)
    }
}
