import Projections
import SubscriptionDomain

extension TimeIndex {
    /// The series of `buckets` (events in `[from, buckets.to)`, `from` nil: from the first) as a
    /// series pass computes it (LedgerSeries.swift): per bucket, counts and money of its events,
    /// stocks and MRR as of its end, the trials started in it (converted as of the series' end).
    /// With `funnel`, also the funnel cohorts by first paywall view and the retention cohorts by
    /// first paid period, which the index keeps for series without a start only; without, those
    /// of every bucket are left empty. Nil when `from` is not a midnight, when `funnel` is asked
    /// with a `from`, or when a sum of money may have saturated.
    public func series(_ buckets: SeriesBuckets, from: Timestamp?, funnel: Bool, profile: Profile) throws -> LedgerSeries? {
        guard moneyExact, let day = Self.windowDay(from), !funnel || from == nil else { return nil }
        let n = buckets.count
        let end = buckets.to
        func bucket(ofDay d: Int64) -> Int? { buckets.index(of: max(SeriesBuckets.midnight(d), buckets.from)) }
        let counts = try countsSeries(buckets)
        // Money flows per bucket, stocks at each bucket's end, and every currency any bucket has.
        var seen = Set<String>()
        var money: [(gross: [String: Money], refunded: [String: Money], adjustment: [String: Money])] = []
        var stocks: [(active: Int, trials: Int, churned: Int, mrr: [String: Money])] = []
        for i in 0..<n {
            let start: Timestamp? = i == 0 && from == nil ? nil : buckets.start(i)
            let flows = (gross: try flows(.gross, .grossChanges, from: start, to: buckets.end(i)),
                         refunded: try flows(.refunded, .refundedChanges, from: start, to: buckets.end(i)),
                         adjustment: try flows(.adjustment, .adjustmentChanges, from: start, to: buckets.end(i)))
            let stock = try self.stocks(at: buckets.end(i))
            seen.formUnion(flows.gross.keys)
            seen.formUnion(flows.refunded.keys)
            seen.formUnion(stock.mrr.keys)
            money.append(flows)
            stocks.append(stock)
        }
        let currencies = seen.sorted()
        // Trials by the bucket of their day of start.
        var trials = [[Int64: (started: Int, converted: Int)]](repeating: [:], count: n)
        for (d, t) in try trialDays(from: day, end: end, before: true) {
            if let i = bucket(ofDay: d) { trials[i][d] = t }
        }
        var reached = [[Int]](repeating: [Int](repeating: 0, count: FunnelProgress.steps.count + 1), count: n)
        var contexts = [[String: [Int]]](repeating: [:], count: n)
        var subscribers = [Int](repeating: 0, count: n)
        var measured = [[Int]](repeating: [Int](repeating: 0, count: LedgerSeries.retentionPeriods), count: n)
        var kept = measured
        if funnel {
            // The whole log's funnel chain (window day before any), by the day of the first paywall view.
            for k in keyRange(.windowFunnel) {
                let (windowDay, viewDay, steps) = keys[k].unpacked
                guard windowDay == TimeKey.beforeAnyDay else { break }
                guard viewDay != TimeKey.noViewDay, let i = bucket(ofDay: viewDay) else { continue }
                let v = Int(try value(k, at: end, before: true))
                guard v != 0 else { continue }
                if steps >= TimeKey.contextStep {
                    contexts[i][keys[k].name, default: [Int](repeating: 0, count: FunnelProgress.steps.count + 1)][steps - TimeKey.contextStep] &+= v
                } else {
                    reached[i][steps] &+= v
                }
            }
            for k in keyRange(.retentionSubscribers) {
                if let i = bucket(ofDay: keys[k].unpacked.other) { subscribers[i] &+= Int(try value(k, at: end, before: true)) }
            }
            for (kind, into) in [(TimeKey.Kind.retentionMeasured, 0), (.retentionKept, 1)] {
                for k in keyRange(kind) {
                    let (_, paidDay, period) = keys[k].unpacked
                    guard period >= 1, let i = bucket(ofDay: paidDay) else { continue }
                    let v = Int(try value(k, at: end))
                    if into == 0 { measured[i][period - 1] &+= v } else { kept[i][period - 1] &+= v }
                }
            }
        }
        var rows: [LedgerSeries.Bucket] = []
        for i in 0..<n {
            let started = trials[i].values.reduce(0) { $0 &+ $1.started }, converted = trials[i].values.reduce(0) { $0 &+ $1.converted }
            let revenue = Self.revenueReport(gross: money[i].gross, refunded: money[i].refunded, adjustment: money[i].adjustment, stocks: stocks[i],
                                             started: started, converted: converted, currencies: currencies, profile: profile)
            let funnelReport = Self.funnelReport(reached: reached[i], contexts: contexts[i], days: trials[i])
            let periods = measured[i].indices.filter { measured[i][$0] > 0 }.map { p in
                LedgerSeries.Period(period: p + 1, measured: measured[i][p], retained: kept[i][p],
                                    rate: Rates.retention(retained: kept[i][p], measured: measured[i][p]))
            }
            rows.append(LedgerSeries.Bucket(start: buckets.start(i), end: buckets.end(i), counts: counts[i], revenue: revenue,
                                            funnel: funnelReport, retention: LedgerSeries.Retention(subscribers: subscribers[i], periods: periods)))
        }
        return LedgerSeries(buckets: buckets, rows: rows)
    }
}
