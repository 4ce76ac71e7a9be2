import SubscriptionDomain

/// One partition's pass for a series: each user's events in effect order, folded once with the
/// same `UserFold` as a replay; what each event adds (counts, money) is put on its day, and every
/// change of the user's stocks (active, trial, churned, MRR), at an event or a timer (trial end,
/// grace end, expiry), is put on the first midnight at or after it. Summing the days into buckets
/// afterwards gives every bucket of every width from this one pass: the cost does not grow with
/// the number of buckets.
package struct SeriesWalker {
    let decider: PlanDecider
    package let options: ReplayOptions
    /// Flows by the day they happened (days since 1970-01-01, UTC).
    package var flows: [Int64: SeriesDay] = [:]
    /// Stock changes by the first midnight at or after them; `Int64.max` for a change after the
    /// last midnight before `asOf` (it belongs to the last bucket).
    package var changes: [Int64: SeriesDay] = [:]
    /// Subscriptions handed to another user (sender, transfer), for the recipients' correction.
    package var transfers: [(sender: String, transfer: UserFold.Transfer)] = []
    /// The earliest event time folded (the default start of a series).
    package var firstEvent: Timestamp?

    /// The current user's walk.
    private var fold = UserFold(user: "")
    private var folded = false
    private var stock = SubscriberStock.none
    private var cursor = Timestamp(nanoseconds: .min)
    private var firstView: Int64?
    private var paidStart: Timestamp?
    /// Pending retention checks: (instant, period number from 1), in time order.
    private var retention: [(at: Timestamp, period: Int)] = []
    /// Subscriptions transferred to this user (time, subscription), senders in id order: applied
    /// after the user's own events, as a replay applies them; each until the sender's next
    /// transfer (`until`), after which the sender's fold hands over that one instead.
    private var incoming: [Incoming] = []

    /// A subscription transferred to the user at `time`, theirs until `until` (nil: from then on).
    package struct Incoming: Sendable {
        var time: Timestamp
        var until: Timestamp?
        var subscription: Subscription

        package init(time: Timestamp, until: Timestamp?, subscription: Subscription) {
            self.time = time
            self.until = until
            self.subscription = subscription
        }
    }
    /// +1, or −1 to take a walk back out (stocks only: the correction for transfer recipients).
    private var sign = 1
    private var withFlows = true

    package init(options: ReplayOptions) {
        self.options = options
        decider = PlanDecider(profile: options.profile)
    }

    /// Starts a user. `incoming`, `sign` and `flows` are for the transfer correction only.
    package mutating func begin(_ user: String, incoming: [Incoming] = [], sign: Int = 1, flows: Bool = true) {
        fold = UserFold(user: user)
        folded = false
        stock = .none
        cursor = Timestamp(nanoseconds: .min)
        firstView = nil
        paidStart = nil
        retention = []
        self.incoming = incoming
        self.sign = sign
        withFlows = flows
    }

    /// Folds the user's next event (events come in effect order, none after `asOf`).
    package mutating func event(_ e: Event) {
        // A subscription received before the user's first event is theirs from its arrival (the stocks change then).
        if folded || !incoming.isEmpty { advance(before: e.time, through: false) }
        checkRetention(before: e.time)
        folded = true
        if firstEvent.map({ e.time < $0 }) ?? true { firstEvent = e.time }
        let counts = fold.counts
        let (gross, refunded, adjustment) = (fold.books.gross, fold.books.refunded, fold.books.takehomeAdjustment)
        let transferOut = fold.transferOut
        fold.apply(e, decider, options)
        if withFlows {
            let day = SeriesBuckets.day(of: e.time)
            if counts != fold.counts {
                for m in Metric.all where fold.counts[m] != counts[m] {
                    flows[day, default: SeriesDay()].counts[m.slot] += Int(fold.counts[m] &- counts[m])
                }
            }
            if options.inWindow(e.time) {
                if gross != fold.books.gross { Self.addDifference(fold.books.gross, gross) { flows[day, default: SeriesDay()].gross[$0, default: .zero] += $1 } }
                if refunded != fold.books.refunded { Self.addDifference(fold.books.refunded, refunded) { flows[day, default: SeriesDay()].refunded[$0, default: .zero] += $1 } }
                if adjustment != fold.books.takehomeAdjustment {
                    Self.addDifference(fold.books.takehomeAdjustment, adjustment) { flows[day, default: SeriesDay()].takehomeAdjustment[$0, default: .zero] += $1 }
                }
            }
            // The first paywall view the funnel counted (in the window, not a sandbox one unless asked).
            if firstView == nil, fold.funnel.reached > 0 { firstView = day }
            if let out = fold.transferOut, out != transferOut { transfers.append((fold.user, out)) }
            startRetention(after: e)
        }
        cursor = e.time
        sample(at: e.time)
    }

    /// Ends the user: the stock changes up to `asOf`, and the cohorts they belong to.
    package mutating func end() {
        guard folded || !incoming.isEmpty else { return }
        advance(before: options.asOf, through: true)
        checkRetention(before: nil)
        guard withFlows else { return }
        if let day = firstView {
            flows[day, default: SeriesDay()].reached[Int(fold.funnel.reached)] += 1
            for p in fold.funnel.byContext {
                flows[day, default: SeriesDay()].contexts[p.context, default: [Int](repeating: 0, count: FunnelProgress.steps.count + 1)][Int(p.reached)] += 1
            }
        }
        if let started = fold.trialStartedAt, options.inWindow(started) {
            let day = SeriesBuckets.day(of: started)
            flows[day, default: SeriesDay()].trialsStarted += 1
            if fold.trialConverted { flows[day, default: SeriesDay()].trialsConverted += 1 }
        }
    }

    /// The user's state as a replay as of `t` would have it: their own events folded so far, then
    /// the subscriptions transferred to them by `t`.
    private func effectiveState(at t: Timestamp) -> SubscriberState {
        guard !incoming.isEmpty else { return fold.state }
        var s = fold.state
        for i in incoming where i.time <= t && i.until.map({ t < $0 }) ?? true { _ = decider.receiveTransfer(&s, i.subscription, at: i.time) }
        return s
    }

    /// Samples the stocks at every change point after the cursor and before `limit` (or at it,
    /// `through`): the timers of the state and the arrivals of transferred subscriptions.
    private mutating func advance(before limit: Timestamp, through: Bool) {
        while true {
            var next = incoming.isEmpty ? decider.timers(fold.state, after: cursor, upTo: limit).first
                : decider.timers(effectiveState(at: cursor), after: cursor, upTo: limit).first
            for i in incoming {
                for t in [i.time, i.until] { if let t, t > cursor && t <= limit { next = min(next ?? t, t) } }
            }
            guard let n = next, through || n < limit else { return }
            cursor = n
            sample(at: n)
        }
    }

    /// Records the change of the user's stocks at `t`, if any.
    private mutating func sample(at t: Timestamp) {
        // (The fold's own state is read in place: a copy costs a dozen reference counts.)
        let s = incoming.isEmpty ? SubscriberStock.of(fold.state, books: fold.books, decider: decider, at: t)
            : SubscriberStock.of(effectiveState(at: t), books: fold.books, decider: decider, at: t)
        guard s != stock else { return }
        let key = stockKey(t)
        let (old, sign) = (stock, sign)
        changes[key, default: SeriesDay()].activeDelta += (s.active - old.active) * sign
        changes[key, default: SeriesDay()].trialDelta += (s.trial - old.trial) * sign
        changes[key, default: SeriesDay()].churnedDelta += (s.churned - old.churned) * sign
        if !old.currency.isEmpty { changes[key, default: SeriesDay()].mrrDelta[old.currency, default: .zero] += Money(micros: -old.mrr.micros * Int64(sign)) }
        if !s.currency.isEmpty { changes[key, default: SeriesDay()].mrrDelta[s.currency, default: .zero] += Money(micros: s.mrr.micros * Int64(sign)) }
        stock = s
    }

    /// The first midnight at or after `t`, or `Int64.max` when that is after `asOf`.
    private func stockKey(_ t: Timestamp) -> Int64 {
        let day = SeriesBuckets.day(of: t)
        let key = SeriesBuckets.midnight(day) == t ? day : day + 1
        return SeriesBuckets.midnight(key) > options.asOf ? .max : key
    }

    /// The user's first paid period (a purchase that starts Pro, or a trial's conversion) opens
    /// their retention cohort: they are checked one, two… periods (of that product) later.
    private mutating func startRetention(after e: Event) {
        guard paidStart == nil, fold.state.rule == .purchaseStartsPro || fold.state.rule == .trialConverted,
              let sub = fold.state.subscription, !sub.accessOnly, options.inWindow(e.time),
              let months = decider.product(sub.product)?.periodMonths else { return }
        paidStart = e.time
        flows[SeriesBuckets.day(of: e.time), default: SeriesDay()].subscribers += 1
        for n in 1...LedgerSeries.retentionPeriods {
            // Checked once the store's renewal for that period had its time to arrive (the
            // unverified grace): a user still waiting for it is not counted as kept.
            let at = Timestamp.addMonths(n * months, to: e.time) + decider.unverifiedGrace
            guard at <= options.asOf else { break }
            retention.append((at, n))
        }
    }

    /// Checks the retention instants before `limit` (all of them when nil): the state then holds
    /// every event up to them.
    private mutating func checkRetention(before limit: Timestamp?) {
        guard let start = paidStart, !retention.isEmpty else { return }
        let day = SeriesBuckets.day(of: start)
        while let first = retention.first, limit.map({ first.at < $0 }) ?? true {
            retention.removeFirst()
            // Kept: in a paid period then (pro); a billing or unverified grace does not count as kept.
            let kept = decider.status(fold.state, at: first.at).planState == .pro && !fold.state.productionIsAccessOnly ? 1 : 0
            flows[day, default: SeriesDay()].retentionMeasured[first.period - 1] += 1
            flows[day, default: SeriesDay()].retentionKept[first.period - 1] += kept
        }
    }

    /// Calls `add` with `after − before` per currency, where it is not zero.
    private static func addDifference(_ after: [UserBooks.Amount], _ before: [UserBooks.Amount], _ add: (String, Money) -> Void) {
        for a in after {
            let was = before.first { $0.currency == a.currency }?.money ?? .zero
            if a.money != was { add(a.currency, a.money - was) }
        }
        for b in before where !after.contains(where: { $0.currency == b.currency }) { add(b.currency, .zero - b.money) }
    }

    /// Adds another partition's days.
    package mutating func merge(_ o: SeriesWalker) {
        for (k, v) in o.flows { flows[k, default: SeriesDay()].add(v) }
        for (k, v) in o.changes { changes[k, default: SeriesDay()].add(v) }
        transfers += o.transfers
        if let f = o.firstEvent, firstEvent.map({ f < $0 }) ?? true { firstEvent = f }
    }
}
