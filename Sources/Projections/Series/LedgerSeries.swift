import EventStore
import SubscriptionDomain

/// A series: the plain reports per bucket. Counts and money are what happened within the bucket;
/// MRR, active subscriptions and trials, churned subscribers and the churn rate are as of the
/// bucket's end; the funnel is the cohort of users whose first paywall view fell in the bucket,
/// its trial figures the cohort of trials started in it, and its retention the cohort of
/// subscribers whose first paid period started in it (definitions in docs/rules.md#series).
public struct LedgerSeries: Sendable {
    public var buckets: SeriesBuckets
    public var rows: [Bucket]

    /// Retention is followed for this many periods after a subscriber's first paid period starts.
    public static let retentionPeriods = 12

    public struct Bucket: Sendable, Equatable {
        public var start: Timestamp
        public var end: Timestamp
        /// Every metric of CONTRACT.md §3, counted within the bucket.
        public var counts: [String: Int]
        public var revenue: RevenueReport
        public var funnel: FunnelReport
        public var retention: Retention

        package init(start: Timestamp, end: Timestamp, counts: [String: Int], revenue: RevenueReport, funnel: FunnelReport, retention: Retention) {
            self.start = start
            self.end = end
            self.counts = counts
            self.revenue = revenue
            self.funnel = funnel
            self.retention = retention
        }
    }

    /// Subscribers whose first paid period started in the bucket, and how many were still
    /// subscribed one, two… periods later.
    public struct Retention: Sendable, Equatable {
        public var subscribers: Int
        /// Period n at index n − 1, for the periods at least one subscriber of the cohort has behind them.
        public var periods: [Period]

        package init(subscribers: Int, periods: [Period]) {
            self.subscribers = subscribers
            self.periods = periods
        }
    }

    public struct Period: Sendable, Equatable {
        public var period: Int
        /// Subscribers of the cohort with this many periods behind them as of the instant.
        public var measured: Int
        /// Of those, the ones in a paid period (`pro`, after the unverified grace) then; a billing grace is not retained (docs/rules.md#series).
        public var retained: Int
        /// retained / measured (0 when none was measured).
        public var rate: Double

        package init(period: Int, measured: Int, retained: Int, rate: Double) {
            self.period = period
            self.measured = measured
            self.retained = retained
            self.rate = rate
        }
    }

    package init(buckets: SeriesBuckets, rows: [Bucket]) {
        self.buckets = buckets
        self.rows = rows
    }
}

/// What one series pass gathered, by day: summed into buckets of any width.
public struct SeriesTotals: Sendable {
    public let options: ReplayOptions
    /// The log's head the pass read to (position and chain hash): what the series reflects.
    public let head: LogHead
    /// The earliest event time up to the instant: the default start of a series.
    public let firstEvent: Timestamp?
    let flows: [Int64: SeriesDay]
    let changes: [Int64: SeriesDay]

    /// The buckets of width `by` from `start`, else `options.from`, else the first event, to
    /// `options.asOf` (partitions of one ledger pass the same `start`: the earliest first event of
    /// all, so their buckets merge); nil when that needs more than `SeriesBuckets.maximumCount` buckets.
    public func series(by: SeriesGranularity, from start: Timestamp? = nil) -> LedgerSeries? {
        let from = start ?? options.from ?? firstEvent ?? options.asOf
        guard let buckets = SeriesBuckets(by: by, from: min(from, options.asOf), to: options.asOf) else { return nil }
        let n = buckets.count
        var flow = [SeriesDay](repeating: SeriesDay(), count: n)
        var change = [SeriesDay](repeating: SeriesDay(), count: n)
        guard n > 0 else { return LedgerSeries(buckets: buckets, rows: []) }
        for (day, d) in flows {
            // A flow's day starts at or after `from`'s day; the first bucket also takes the part of its day before `from`.
            guard let i = buckets.index(of: max(SeriesBuckets.midnight(day), buckets.from)) else { continue }
            flow[i].add(d)
        }
        for (key, d) in changes {
            // A change keyed by midnight m belongs to the first bucket ending at or after m.
            let i: Int
            if key == .max { i = n - 1 } else {
                let m = SeriesBuckets.midnight(key)
                var lo = 0, hi = n - 1
                while lo < hi { let mid = (lo + hi) / 2; if buckets.end(mid) >= m { hi = mid } else { lo = mid + 1 } }
                i = lo
            }
            change[i].add(d)
        }
        // The stocks at each bucket's end, and every currency the series has in any bucket: each
        // bucket lists every one of them (zeros where it has none), so a bucket's `currencies`
        // has the same rows whatever happened in it.
        var stocks: [SeriesDay] = []
        var stock = SeriesDay()
        var seen = Set<String>()
        for i in 0..<n {
            stock.add(change[i])
            stocks.append(stock)
            seen.formUnion(flow[i].gross.keys)
            seen.formUnion(flow[i].refunded.keys)
            seen.formUnion(stock.mrrDelta.keys.filter { stock.mrrDelta[$0, default: .zero] != .zero })
        }
        let currencies = seen.sorted()
        var rows: [LedgerSeries.Bucket] = []
        for i in 0..<n {
            let f = flow[i]
            var counts: [String: Int] = [:]
            for m in Metric.all { counts[m.name] = f.counts[m.slot] }
            rows.append(LedgerSeries.Bucket(
                start: buckets.start(i), end: buckets.end(i), counts: counts, revenue: revenue(flow: f, stock: stocks[i], currencies: currencies),
                funnel: funnel(f, days: flows, in: buckets, bucket: i), retention: retention(f)))
        }
        return LedgerSeries(buckets: buckets, rows: rows)
    }

    /// The revenue of money flows `f` and stocks `stock`, one line per currency of `currencies`.
    private func revenue(flow f: SeriesDay, stock: SeriesDay, currencies: [String]) -> RevenueReport {
        let commission = options.profile.commissionPercent
        let lines = currencies.map { c in
            RevenueReport.line(currency: c, gross: f.gross[c, default: .zero], refunded: f.refunded[c, default: .zero], mrr: stock.mrrDelta[c, default: .zero],
                               commissionPercent: commission, adjustment: f.takehomeAdjustment[c, default: .zero])
        }
        let (active, churned) = (stock.activeDelta, stock.churnedDelta)
        return RevenueReport(
            lines: lines, activeSubscriptions: active, activeTrials: stock.trialDelta, churnedSubscribers: churned,
            churnRate: Rates.churn(churned: churned, active: active),
            trialConversionRate: Rates.trialConversion(started: f.trialsStarted, converted: f.trialsConverted),
            trialsStarted: f.trialsStarted, trialsConverted: f.trialsConverted, commissionPercent: commission,
            takehomeAdjustments: f.takehomeAdjustment.dictionary)
    }

    /// The revenue report of the whole window in one: money flows within `options.from`…`options.to`
    /// (what the series' buckets hold, summed), stocks and MRR as of the series' end (its last
    /// bucket's), trial conversion of the trials started in the window. What `revenue --from/--to` prints.
    public func windowRevenue() -> RevenueReport {
        var flow = SeriesDay(), stock = SeriesDay()
        for d in flows.values { flow.add(d) }
        for d in changes.values { stock.add(d) }
        let currencies = Set(flow.gross.keys).union(flow.refunded.keys)
            .union(stock.mrrDelta.keys.filter { stock.mrrDelta[$0, default: .zero] != .zero }).sorted()
        return revenue(flow: flow, stock: stock, currencies: currencies)
    }

    private func funnel(_ f: SeriesDay, days: [Int64: SeriesDay], in buckets: SeriesBuckets, bucket i: Int) -> FunnelReport {
        // The weekly cohorts of the trials started in this bucket (one per week, or a part of one).
        var weeks: [String: (Int, Int)] = [:]
        for (day, d) in days where d.trialsStarted > 0 {
            guard buckets.index(of: max(SeriesBuckets.midnight(day), buckets.from)) == i else { continue }
            let week = LedgerSnapshot.weekStart(SeriesBuckets.midnight(day))
            weeks[week, default: (0, 0)].0 += d.trialsStarted
            weeks[week, default: (0, 0)].1 += d.trialsConverted
        }
        return FunnelReport(
            steps: FunnelReport.steps(f.reached),
            byContext: f.contexts.dictionary.mapValues { FunnelReport.steps($0) },
            trialsStarted: f.trialsStarted, trialsConverted: f.trialsConverted,
            cohorts: weeks.map { FunnelReport.Cohort(week: $0.key, started: $0.value.0, converted: $0.value.1) }.sorted { $0.week < $1.week })
    }

    private func retention(_ f: SeriesDay) -> LedgerSeries.Retention {
        let periods = f.retentionMeasured.indices.filter { f.retentionMeasured[$0] > 0 }.map { i in
            LedgerSeries.Period(period: i + 1, measured: f.retentionMeasured[i], retained: f.retentionKept[i],
                                rate: Rates.retention(retained: f.retentionKept[i], measured: f.retentionMeasured[i]))
        }
        return LedgerSeries.Retention(subscribers: f.subscribers, periods: periods)
    }

    package init(options: ReplayOptions, head: LogHead, firstEvent: Timestamp?, flows: [Int64: SeriesDay], changes: [Int64: SeriesDay]) {
        self.options = options
        self.head = head
        self.firstEvent = firstEvent
        self.flows = flows
        self.changes = changes
    }
}
