import Projections
import SubscriptionDomain

extension TimeIndex {
    /// The series of `buckets` (events in `[from, buckets.to)`, `from` nil: from the first) as a
    /// series pass computes it (LedgerSeries.swift): per bucket, counts and money of its events,
    /// stocks and MRR as of its end, the trials started in it (converted as of the series' end).
    /// With `funnel`, also the funnel cohorts by first paywall view and the retention cohorts by
    /// first paid period (both restarted at `from`, as a series pass with a start restarts them);
    /// without, those of every bucket are left empty. Nil when `from` is not a midnight or when a
    /// sum of money may have saturated.
    public func series(_ buckets: SeriesBuckets, from: Timestamp?, funnel: Bool, profile: Profile) throws -> LedgerSeries? {
        guard moneyExact, let day = Self.windowDay(from) else { return nil }
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
            // Each user's chain the series' start selects, by the day of its first paywall view: the
            // first chain (window day before any) and the cohort keys of the window days before the
            // start, each with a view from the start on (`WindowSteps`).
            for kind in [TimeKey.Kind.windowFunnel, .cohortFunnel] {
                for k in keyRange(kind) {
                    let (windowDay, viewDay, steps) = keys[k].unpacked
                    guard kind == .windowFunnel ? windowDay == TimeKey.beforeAnyDay : windowDay < day else { break }
                    guard viewDay != TimeKey.noViewDay, viewDay >= day, let i = bucket(ofDay: viewDay) else { continue }
                    let v = Int(try value(k, at: end, before: true))
                    guard v != 0 else { continue }
                    if steps >= TimeKey.contextStep {
                        contexts[i][keys[k].name, default: [Int](repeating: 0, count: FunnelProgress.steps.count + 1)][steps - TimeKey.contextStep] &+= v
                    } else {
                        reached[i][steps] &+= v
                    }
                }
            }
            // The first paid start from the series' start on: kept under a window day before the start.
            for k in keyRange(.retentionSubscribers) {
                let (windowDay, paidDay, _) = keys[k].unpacked
                guard windowDay < day else { break }
                if paidDay >= day, let i = bucket(ofDay: paidDay) { subscribers[i] &+= Int(try value(k, at: end, before: true)) }
            }
            // The checks measured as of the end: each period's shift back from the end on the paid
            // starts kept by when they fall due, and those kept one by one.
            for k in keyRange(.retentionDue) {
                let (windowDay, paidDay, months) = keys[k].unpacked
                guard windowDay < day else { break }
                guard paidDay >= day, let i = bucket(ofDay: paidDay) else { continue }
                let shifts = TimeKey.RetentionShifts(paidDay: paidDay)
                for period in 1...LedgerSeries.retentionPeriods {
                    guard let shift = shifts.shift(months: months, period: period) else { continue }
                    measured[i][period - 1] &+= Int(try value(k, at: Timestamp(nanoseconds: end.nanoseconds.subtractingSaturated(shift))))
                }
            }
            for (kind, into) in [(TimeKey.Kind.retentionMeasured, 0), (.retentionKept, 1)] {
                for k in keyRange(kind) {
                    let (windowDay, paidDay, period) = keys[k].unpacked
                    guard windowDay < day else { break }
                    guard period >= 1, paidDay >= day, let i = bucket(ofDay: paidDay) else { continue }
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
