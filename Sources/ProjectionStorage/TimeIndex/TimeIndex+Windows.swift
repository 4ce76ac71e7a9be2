import Projections
import EventStore
import SubscriptionDomain

// Windows and series of `funnel` and `revenue` from the index's sums: the values a windowed
// replay (`funnel --from/--to`) and a series pass (`revenue --from/--to`, `--by`) compute
// (FunnelReport.swift, SeriesWalker.swift, LedgerSeries.swift), for windows that start at a
// midnight (UTC) or have no start. The trial cohorts and the window funnels are kept by day
// (`TimeKey.cohortStarted`, `WindowSteps`), so a start within a day is folded as before (nil).

extension TimeIndex {
    /// The log's chain hash at `position`: with it, the head the index covers.
    public var chainHash: EventStore.SHA256.Digest { hash }

    /// The keys of `kind`: a range of `keys` (kept in key order, kind first).
    func keyRange(_ kind: TimeKey.Kind) -> Range<Int> {
        func first(_ raw: Int) -> Int {
            var lo = 0, hi = keys.count
            while lo < hi { let mid = (lo + hi) / 2; if Int(keys[mid].kind.rawValue) < raw { lo = mid + 1 } else { hi = mid } }
            return lo
        }
        return first(Int(kind.rawValue))..<first(Int(kind.rawValue) + 1)
    }

    /// The window day of a window starting at `from` (nil: no start), or nil when it does not start at a midnight.
    static func windowDay(_ from: Timestamp?) -> Int64? {
        guard let from else { return TimeKey.beforeAnyDay + 1 }
        let day = SeriesBuckets.day(of: from)
        return SeriesBuckets.midnight(day) == from ? day : nil
    }

    /// Whether the index answers a window or series starting at `from` (nil: no start): at a midnight (UTC).
    public static func readsWindow(startingAt from: Timestamp?) -> Bool { windowDay(from) != nil }

    /// Trials started on or after window day `day` and before `end` (through it, `!before`), and
    /// of those the ones converted through `end`, per day of start (only days with a start).
    func trialDays(from day: Int64, end: Timestamp, before: Bool) throws -> [Int64: (started: Int, converted: Int)] {
        var days: [Int64: (started: Int, converted: Int)] = [:]
        for k in keyRange(.cohortStarted) where keys[k].number >= day {
            let n = Int(try value(k, at: end, before: before))
            if n != 0 { days[keys[k].number, default: (0, 0)].started = n }
        }
        for k in keyRange(.cohortConverted) where keys[k].number >= day && days[keys[k].number] != nil {
            days[keys[k].number]!.converted = Int(try value(k, at: end))
        }
        // A trial that started at `end` itself is outside a window ending there, though its conversion is not.
        if before {
            for k in keyRange(.cohortSameInstant) where keys[k].number >= day && days[keys[k].number] != nil {
                days[keys[k].number]!.converted -= Int(try value(k, at: end) &- value(k, at: end, before: true))
            }
        }
        return days
    }

    /// The funnel of the window `[from, to)` (open where nil) as of `at` (`to` when given), as a
    /// windowed replay computes it; nil when `from` is not a midnight.
    public func funnel(at: Timestamp, from: Timestamp?, to: Timestamp?) throws -> FunnelReport? {
        guard let day = Self.windowDay(from) else { return nil }
        let end = to.map { min($0, at) } ?? at, before = to.map { $0 <= at } ?? false
        // A window asked as of an instant before its start holds no event yet; the keys under a
        // window day are kept for ends from the next day on only (`WindowSteps`).
        if let from, end < from {
            return Self.funnelReport(reached: [Int](repeating: 0, count: FunnelProgress.steps.count + 1), contexts: [:],
                                     days: try trialDays(from: day, end: end, before: before))
        }
        return try windowFunnel(day: day, end: end, before: before)
    }

    /// The funnel of the window from midnight of `day` (`beforeAnyDay` + 1: no start) as of `end`
    /// (strictly before it, with `before`), the window's end not before its start.
    func windowFunnel(day: Int64, end: Timestamp, before: Bool) throws -> FunnelReport {
        var reached = [Int](repeating: 0, count: FunnelProgress.steps.count + 1)
        var contexts: [String: [Int]] = [:]
        for k in keyRange(.windowFunnel) {
            let (windowDay, _, steps) = keys[k].unpacked
            guard windowDay < day else { break }
            let n = Int(try value(k, at: end, before: before))
            guard n != 0 else { continue }
            if steps >= TimeKey.contextStep {
                contexts[keys[k].name, default: [Int](repeating: 0, count: reached.count)][steps - TimeKey.contextStep] &+= n
            } else {
                reached[steps] &+= n
            }
        }
        return Self.funnelReport(reached: reached, contexts: contexts, days: try trialDays(from: day, end: end, before: before))
    }

    /// Users per steps reached overall (1…4, at those places) from the sums of a window funnel's
    /// overall keys, which count them beyond the contexts (`FunnelProgress.beyondContexts`), and the contexts'.
    static func overall(beyondContexts reached: [Int], _ contexts: [String: [Int]]) -> [Int] {
        var out = reached
        for steps in contexts.values {
            for s in 1..<out.count { out[s] &+= steps[s] }
        }
        return out
    }

    /// A funnel report from users per steps reached beyond their contexts, per context, and trials per day of start.
    static func funnelReport(reached: [Int], contexts: [String: [Int]], days: [Int64: (started: Int, converted: Int)]) -> FunnelReport {
        var cohorts: [String: (Int, Int)] = [:]
        for (day, d) in days {
            let week = LedgerSnapshot.weekStart(SeriesBuckets.midnight(day))
            cohorts[week, default: (0, 0)].0 &+= d.started
            cohorts[week, default: (0, 0)].1 &+= d.converted
        }
        let cohortList = cohorts.map { FunnelReport.Cohort(week: $0.key, started: $0.value.0, converted: $0.value.1) }.sorted { $0.week < $1.week }
        // A context is listed when a user has it (sums of keys that cancel out leave none).
        return FunnelReport(
            steps: FunnelReport.steps(overall(beyondContexts: reached, contexts)),
            byContext: contexts.filter { $0.value.contains { $0 != 0 } }.mapValues { FunnelReport.steps($0) },
            trialsStarted: cohortList.reduce(0) { $0 &+ $1.started },
            trialsConverted: cohortList.reduce(0) { $0 &+ $1.converted },
            cohorts: cohortList)
    }

    /// Money of one kind per currency over `[start, end)`, for the currencies an event changed in it.
    func flows(_ sum: TimeKey.Kind, _ changes: TimeKey.Kind, from start: Timestamp?, to end: Timestamp) throws -> [String: Money] {
        var out: [String: Money] = [:]
        for k in keyRange(changes) {
            let n = try value(k, at: end, before: true) &- (start.map { try value(k, at: $0, before: true) } ?? 0)
            if n > 0 { out[keys[k].name] = .zero }
        }
        for k in keyRange(sum) where out[keys[k].name] != nil {
            out[keys[k].name] = Money(micros: try value(k, at: end, before: true) &- (start.map { try value(k, at: $0, before: true) } ?? 0))
        }
        return out
    }

    /// The stocks as of `instant`: active subscriptions, active trials, churned, and MRR per currency (where not zero).
    func stocks(at instant: Timestamp) throws -> (active: Int, trials: Int, churned: Int, mrr: [String: Money]) {
        var out = (active: 0, trials: 0, churned: 0, mrr: [String: Money]())
        // (Active subscriptions are those beyond the MRR holders, and the holders.)
        for k in keyRange(.active) { out.active &+= Int(try value(k, at: instant)) }
        for k in keyRange(.mrrHolders) { out.active &+= Int(try value(k, at: instant)) }
        for k in keyRange(.trial) { out.trials = Int(try value(k, at: instant)) }
        for k in keyRange(.churned) { out.churned = Int(try value(k, at: instant)) }
        for k in keyRange(.mrr) {
            let v = try value(k, at: instant)
            if v != 0 { out.mrr[keys[k].name] = Money(micros: v) }
        }
        return out
    }

    /// A revenue report of money flows, stocks and trials, one line per currency of `currencies`.
    static func revenueReport(gross: [String: Money], refunded: [String: Money], adjustment: [String: Money],
                                      stocks: (active: Int, trials: Int, churned: Int, mrr: [String: Money]),
                                      started: Int, converted: Int, currencies: [String], profile: Profile) -> RevenueReport {
        let lines = currencies.map { c in
            RevenueReport.line(currency: c, gross: gross[c] ?? .zero, refunded: refunded[c] ?? .zero, mrr: stocks.mrr[c] ?? .zero,
                               commissionPercent: profile.commissionPercent, adjustment: adjustment[c] ?? .zero)
        }
        return RevenueReport(
            lines: lines, activeSubscriptions: stocks.active, activeTrials: stocks.trials, churnedSubscribers: stocks.churned,
            churnRate: Rates.churn(churned: stocks.churned, active: stocks.active),
            trialConversionRate: Rates.trialConversion(started: started, converted: converted),
            trialsStarted: started, trialsConverted: converted, commissionPercent: profile.commissionPercent,
            takehomeAdjustments: adjustment)
    }

    /// Revenue of the window `[from, to)` as `revenue --from/--to` prints it (a series pass as of
    /// `to`): money of the events in the window, stocks and MRR as of `to`, trial conversion of the
    /// trials started in the window (an empty window when `from` is not before `to`). Nil when
    /// `from` is not a midnight or a sum of money may have saturated.
    public func revenue(from: Timestamp?, to: Timestamp, profile: Profile) throws -> RevenueReport? {
        guard moneyExact, let day = Self.windowDay(from) else { return nil }
        let empty = from.map { $0 >= to } ?? false
        let gross = empty ? [:] : try flows(.gross, .grossChanges, from: from, to: to)
        let refunded = empty ? [:] : try flows(.refunded, .refundedChanges, from: from, to: to)
        let adjustment = empty ? [:] : try flows(.adjustment, .adjustmentChanges, from: from, to: to)
        let stocks = try stocks(at: to)
        let trials = empty ? [:] : try trialDays(from: day, end: to, before: true)
        let currencies = Set(gross.keys).union(refunded.keys).union(stocks.mrr.keys).sorted()
        return Self.revenueReport(gross: gross, refunded: refunded, adjustment: adjustment, stocks: stocks,
                                  started: trials.values.reduce(0) { $0 &+ $1.started }, converted: trials.values.reduce(0) { $0 &+ $1.converted },
                                  currencies: currencies, profile: profile)
    }

    /// The notification schedule as of `instant`, counted by kind and status (what `report` shows).
    public func notificationSummary(at instant: Timestamp) throws -> NotificationSummary {
        var s = NotificationSummary()
        for k in keyRange(.notifications) {
            let n = Int(try value(k, at: instant))
            guard n != 0 else { continue }
            let number = Int(keys[k].number)
            s.byStatus[TimeKey.notificationKinds[number / 3], default: [:]][TimeKey.notificationStatuses[number % 3]] = n
        }
        for k in keyRange(.notificationsInApp) {
            let n = Int(try value(k, at: instant))
            if n != 0 { s.inAppOnly[TimeKey.notificationKinds[Int(keys[k].number)]] = n }
        }
        return s
    }
}
