import SubscriptionDomain

/// What one user's walk (`UserSteps.walk`) adds to the time index for windows and series, beyond
/// their contribution as of an instant: the events that changed a sum of money (a window's
/// currencies), a trial converted at the instant it started, the window funnels, and the
/// retention of their first paid period. Each is given to the walk's sink as (key, instant,
/// difference), like the contribution's steps.
///
/// A window's funnel restarts at the window's start: a user's progress over `[from, to)` depends
/// on both ends. For a start at a midnight (day D), what counts is the first funnel event on or
/// after D; so the user's funnel events are cut by day, d1 < d2 < … (the days they have one), and
/// for D in (d(j−1), dj] the user's funnel is the walk from the first event of day dj (chain j),
/// a step function of the window's end. Chain j is kept as +walk under window day d(j−1) (d0: any
/// day before) and −walk under window day dj, so that a window from D sums the keys of window days
/// before D: every chain but the one D selects cancels out. (Only windows from a later day sum the
/// keys under dj, and they end after every instant of it: the −walk's changes on day dj are given
/// as one, at the chain's first instant.) The first chain is also kept by the
/// day of its first paywall view (the series' funnel cohorts). A user walks one chain per day with
/// a funnel event, each over the funnel events after it.
///
/// A series from D counts each user's chain D selects by that chain's first view day vj (≥ dj ≥ D).
/// So chain j after the first is also kept by vj under window day d(j−1) (`cohortFunnel`, +), and
/// taken out by vj under window day dj (−) when vj is after dj: summing the cohort keys of window
/// days before D and view days from D on, a chain j < the selected one either has its view before
/// D (left out) or is taken out again. Keys whose view day is not after their window day are never
/// summed, so they are not kept. The retention cohort of a series from D is the first paid start
/// on or after D: each paid start on a later day than the one before it is kept under the day of
/// that one (the first under `beforeAnyDay`), and a series from D sums window days before D and
/// paid days from D on.
package struct WindowSteps {
    /// The rules folded with (another when a walk is forked, `UserSteps.forked`).
    var decider: PlanDecider
    /// Sandbox events count too (as in a replay with `includeSandbox`).
    let includeSandbox: Bool
    /// The funnel events a replay's funnel counts (production ones, or all with `includeSandbox`),
    /// in effect order, as their places in the user's events.
    private var funnel: [Int] = []
    /// The funnel events so far: the window funnels (`finish`) are a function of them and the events.
    var funnelEvents: [Int] { funnel }
    /// The day of the last paid start (nil: none yet), and the pending retention checks of the
    /// paid starts kept: (instant, the cohort's key number for period 0, period, whether it is
    /// counted measured one by one), in time order.
    private var lastPaidDay: Int64?
    private var checks: [(at: Timestamp, cohort: Int64, period: Int, measured: Bool)] = []
    /// How many of `checks` (from the first) are checked: left in place until every one is
    /// (taking each from the front moved the rest along).
    private var checked = 0
    /// The notification schedule's counts as last given, by `notificationSlot`.
    private var notified = InlineArray<8, Int64>(repeating: 0)

    /// Whether `other` holds what this one does (the rules folded with aside).
    func holdsTheSame(as other: WindowSteps) -> Bool {
        includeSandbox == other.includeSandbox && funnel == other.funnel && lastPaidDay == other.lastPaidDay
            && checks[checked...].elementsEqual(other.checks[other.checked...]) { $0.at == $1.at && $0.cohort == $1.cohort && $0.period == $1.period && $0.measured == $1.measured }
            && notified.indices.allSatisfy { notified[$0] == other.notified[$0] }
    }

    init(decider: PlanDecider, includeSandbox: Bool) {
        self.decider = decider
        self.includeSandbox = includeSandbox
    }

    /// Takes in one event (the user's `index`th) just folded into `fold` at `now`; `books` and
    /// `converted` are the fold's before it (`books` nil: the event cannot change them, `UserBooks.records`).
    mutating func event(_ e: Event, index: Int, now: Timestamp, fold: UserFold, books: UserBooks?, converted: Bool,
                        _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        let rule = fold.state.rule
        if includeSandbox || rule != .sandboxApart, FunnelProgress.step(of: e.type) != nil {
            if funnel.isEmpty { funnel.reserveCapacity(16) }   // (not grown from one place, most users with one have several)
            funnel.append(index)
        }
        if let books {
            if fold.books.gross != books.gross { Self.changes(fold.books.gross, books.gross, .grossChanges, now, emit) }
            if fold.books.refunded != books.refunded { Self.changes(fold.books.refunded, books.refunded, .refundedChanges, now, emit) }
            if fold.books.takehomeAdjustment != books.takehomeAdjustment {
                Self.changes(fold.books.takehomeAdjustment, books.takehomeAdjustment, .adjustmentChanges, now, emit)
            }
        }
        if !converted, fold.trialConverted, let started = fold.trialStartedAt, started == now {
            emit(TimeKey(kind: .cohortSameInstant, number: SeriesBuckets.day(of: now)), now, 1)
        }
        // A paid start opens a retention cohort (as SeriesWalker.startRetention): the first one for
        // a series without a start, a later one on a later day for series from a day after the one before.
        // (The production subscription's fields read in place: `subscription` would copy the whole of it.)
        if rule == .purchaseStartsPro || rule == .trialConverted, let i = fold.state.index(of: .production),
           !fold.state.subscriptions[i].accessOnly, let months = decider.billingTerms(of: fold.state.subscriptions[i].product)?.periodMonths {
            let day = SeriesBuckets.day(of: e.time), before = lastPaidDay
            lastPaidDay = day
            // A second paid start on the same day is never a series' cohort (the first of the day is).
            if before.map({ $0 < day }) ?? true {
                let window = before ?? TimeKey.beforeAnyDay, cohort = TimeKey.pack(window, day, 0)
                emit(TimeKey(kind: .retentionSubscribers, number: cohort), e.time, 1)
                let date = Timestamp.MonthSteps(e.time)
                let at = (1...LedgerSeries.retentionPeriods).map { date.adding($0 * months) + decider.unverifiedGrace }
                // The checks measured follow from the start when each is its due instant shifted (`retentionDue`).
                let due = Self.dueInstant(e.time, day: day, months: months, grace: decider.unverifiedGrace, checks: at)
                if let due { emit(TimeKey(kind: .retentionDue, number: TimeKey.pack(window, day, months)), due, 1) }
                checks.reserveCapacity(checks.count + LedgerSeries.retentionPeriods)
                for (n, at) in zip(1..., at) {
                    // In time order among the earlier cohorts' checks (found from the end: mostly the end itself).
                    checks.insert((at, cohort, n, due == nil), at: checks[checked...].lastIndex { $0.at <= at }.map { $0 + 1 } ?? checked)
                }
            }
        }
    }

    /// The instant a paid start at `start` on `day` is kept at under `retentionDue` (the start plus
    /// the unverified grace), when each of its checks `checks` (periods 1, 2, …) is that instant
    /// shifted by `TimeKey.retentionShift`, exactly and well within the timestamps' range (±2⁶²
    /// ns: so a lookup shifted back can never saturate onto it); nil otherwise (the checks are
    /// then kept one by one).
    static func dueInstant(_ start: Timestamp, day: Int64, months: Int, grace: Timestamp.Duration, checks: [Timestamp]) -> Timestamp? {
        let range: ClosedRange<Int64> = -(1 << 62)...(1 << 62)
        let (due, overflow) = start.nanoseconds.addingReportingOverflow(grace.nanoseconds)
        guard !overflow, range.contains(due), (1...31).contains(months) else { return nil }
        let shifts = TimeKey.RetentionShifts(paidDay: day)
        for (n, at) in zip(1..., checks) {
            guard range.contains(at.nanoseconds), let shift = shifts.shift(months: months, period: n) else { return nil }
            let (shifted, overflow) = due.addingReportingOverflow(shift)
            guard !overflow, shifted == at.nanoseconds else { return nil }
        }
        return Timestamp(nanoseconds: due)
    }

    /// Checks the retention instants before `limit` (all, when nil) against `state`, which holds
    /// every event up to them: measured, and kept when in a paid period then.
    mutating func checkRetention(before limit: Timestamp?, state: SubscriberState, _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        guard checked < checks.count else { return }
        defer { if checked == checks.count { checks.removeAll(keepingCapacity: true); checked = 0 } }
        while checked < checks.count, limit.map({ checks[checked].at < $0 }) ?? true {
            let first = checks[checked]
            checked += 1
            if first.measured { emit(TimeKey(kind: .retentionMeasured, number: first.cohort + Int64(first.period)), first.at, 1) }
            if decider.status(state, at: first.at).planState == .pro && !state.productionIsAccessOnly {
                emit(TimeKey(kind: .retentionKept, number: first.cohort + Int64(first.period)), first.at, 1)
            }
        }
    }

    /// Gives the change of the notification schedule's counts at `now` (the user's entries after
    /// the events there), and the entries turning due at their fire times before `next` (the
    /// user's next event; nil: none).
    mutating func notifications(_ entries: [NotificationEntry], now: Timestamp, next: Timestamp?, _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        var counts = InlineArray<8, Int64>(repeating: 0)
        for n in entries {
            let status: ScheduledNotification.Status = n.cancelled ? .cancelled : (n.fireAt <= now ? .due : .scheduled)
            counts[Self.notificationSlot(n.kind, status)] += 1
            if n.inAppOnly { counts[Self.inAppSlot(n.kind)] += 1 }
        }
        for s in counts.indices where counts[s] != notified[s] { emit(Self.notificationKey(s), now, counts[s] - notified[s]) }
        // Until the next event, an entry changes only by turning due at its fire time.
        for n in entries where !n.cancelled && n.fireAt > now && (next.map { n.fireAt < $0 } ?? true) {
            emit(TimeKey.notification(n.kind, .scheduled), n.fireAt, -1)
            emit(TimeKey.notification(n.kind, .due), n.fireAt, 1)
            counts[Self.notificationSlot(n.kind, .scheduled)] -= 1
            counts[Self.notificationSlot(n.kind, .due)] += 1
        }
        notified = counts
    }

    /// The schedule's counts in one row: entries by kind and status (0…5, as `TimeKey.notification`
    /// numbers them), then those in-app only by kind (6, 7).
    private static func notificationSlot(_ kind: ScheduledNotification.Kind, _ status: ScheduledNotification.Status) -> Int {
        Int(TimeKey.notification(kind, status).number)
    }
    private static func inAppSlot(_ kind: ScheduledNotification.Kind) -> Int { kind == .trialEnding ? 6 : 7 }
    private static func notificationKey(_ slot: Int) -> TimeKey {
        slot < 6 ? TimeKey(kind: .notifications, number: Int64(slot)) : TimeKey(kind: .notificationsInApp, number: Int64(slot - 6))
    }

    /// One change of a window funnel key as the chains give it: the key's packed `number`, its
    /// paywall context as a place in the user's context names (-1: overall), instant and change.
    private struct ChainChange {
        /// `windowFunnel` or `cohortFunnel`.
        var kind: TimeKey.Kind
        var number: Int64
        var context: Int32
        var time: Timestamp
        var delta: Int64
    }

    /// Gives the window funnels' chains (see the type's note), summed per key and instant first:
    /// chain j taken out and chain j + 1 put in under the same window day mostly cancel out. The
    /// changes are sorted by number, context and instant (integers: the context names are looked
    /// up once per chain), and keys are made only for the sums that are not zero.
    /// `scratch` holds working lists for the chains (kept from user to user by a walk of many).
    func finish(_ events: [Event], scratch: inout ChainScratch, _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        guard !funnel.isEmpty else { return }
        var names = scratch.takeNames()
        defer { scratch.names = names }
        func key(_ c: ChainChange, _ names: [String]) -> TimeKey {
            TimeKey(kind: c.kind, number: c.number, name: c.context < 0 ? "" : names[Int(c.context)])
        }
        // Funnel events on one day (most users'): one chain, added under "before any" and taken
        // out under its day (the first chain as `chains` walks it, without the list of starts and
        // the views' days it then needs), whose keys each change at most once an instant: given
        // as they come.
        let day = SeriesBuckets.day(of: events[funnel[0]].time)
        if SeriesBuckets.day(of: events[funnel[funnel.count - 1]].time) == day {
            chain(events, from: 0, added: TimeKey.beforeAnyDay, byView: true, takenOut: day, cohorts: (added: false, takenOut: false),
                  names: &names, scratch: &scratch) { c, names in emit(key(c, names), c.time, c.delta) }
            return
        }
        var changes: [ChainChange] = []
        changes.reserveCapacity(4 * funnel.count)
        chains(events, names: &names, scratch: &scratch) { c, _ in changes.append(c) }
        changes.sort { ($0.kind.rawValue, $0.number, $0.context, $0.time) < ($1.kind.rawValue, $1.number, $1.context, $1.time) }
        var i = 0
        while i < changes.count {
            let first = changes[i]
            var sum: Int64 = 0
            while i < changes.count, changes[i].time == first.time, changes[i].number == first.number, changes[i].context == first.context,
                  changes[i].kind == first.kind {
                sum &+= changes[i].delta
                i += 1
            }
            guard sum != 0 else { continue }
            emit(key(first, names), first.time, sum)
        }
    }

    private func chains(_ events: [Event], names: inout [String], scratch: inout ChainScratch, _ emit: (ChainChange, _ names: [String]) -> Void) {
        var starts: [Int] = []
        for i in funnel.indices where i == 0 || SeriesBuckets.day(of: events[funnel[i - 1]].time) != SeriesBuckets.day(of: events[funnel[i]].time) {
            starts.append(i)
        }
        var viewAt = 0   // (the first view at or after a chain's start: starts grow, so one pass for all)
        for (j, s) in starts.enumerated() {
            let day = SeriesBuckets.day(of: events[funnel[s]].time)
            let before = j == 0 ? TimeKey.beforeAnyDay : SeriesBuckets.day(of: events[funnel[starts[j - 1]]].time)
            // The chain's first view (the first step reached) names its cohort in a series from a day after `before`.
            viewAt = max(viewAt, s)
            while viewAt < funnel.count, events[funnel[viewAt]].type != .paywallViewed { viewAt += 1 }
            let view = viewAt < funnel.count ? SeriesBuckets.day(of: events[funnel[viewAt]].time) : nil
            chain(events, from: s, added: before, byView: j == 0, takenOut: day,
                  cohorts: (added: j > 0 && view != nil, takenOut: view.map { $0 > day } ?? false),
                  names: &names, scratch: &scratch, emit)
        }
    }

    /// A key a chain holds under one window day: its packed `number`, its context's place in the
    /// user's context names (-1: overall) and how many times it counts (overall: at most a few, either sign).
    fileprivate struct HeldKey: Sendable {
        var number: Int64
        var context: Int32
        var count: Int64
    }

    /// A chain's working lists, emptied by each chain and kept for the next (a user walks one per
    /// day with a funnel event), and by a walk of many users from one user to the next.
    package struct ChainScratch: Sendable {
        /// The user's context names (emptied for each user).
        fileprivate var names: [String] = []
        /// The place in `names` of each of the chain's contexts, in `progress.byContext` order (which only grows).
        fileprivate var places: [Int32] = []
        /// The keys the chain holds under the window day it is added to and under the one it is
        /// taken out of, and those it holds after the instant being walked.
        fileprivate var added: [HeldKey] = [], takenOut: [HeldKey] = []
        /// The same for the chain's `cohortFunnel` keys.
        fileprivate var cohortAdded: [HeldKey] = [], cohortTakenOut: [HeldKey] = []
        fileprivate var keys: [HeldKey] = []

        /// The names list, emptied, for a user's chains.
        fileprivate mutating func takeNames() -> [String] {
            var out: [String] = []
            swap(&out, &names)
            out.removeAll(keepingCapacity: true)
            return out
        }

        /// Room for a few contexts (a user has few), so that the lists are not grown from one place.
        package init() {
            names.reserveCapacity(4)
            places.reserveCapacity(4)
            added.reserveCapacity(8)
            takenOut.reserveCapacity(8)
            keys.reserveCapacity(8)
        }
    }

    /// The funnel walked from funnel event `start` on, as (window day, first view day, steps) keys,
    /// given once added (+1) under window day `added` (by first view day with `byView`) and once
    /// taken out (−1) under window day `takenOut`: one walk for both, and for the `cohortFunnel`
    /// keys by first view day under the same window days, as `cohorts` asks (from the first view
    /// on). Each paywall context is named by its place in `names` (added there when new).
    private func chain(_ events: [Event], from start: Int, added: Int64, byView: Bool, takenOut: Int64,
                       cohorts: (added: Bool, takenOut: Bool),
                       names: inout [String], scratch: inout ChainScratch, _ give: (ChainChange, _ names: [String]) -> Void) {
        // (Each change with the names so far: its context's is among them.)
        func emit(_ c: ChainChange) { give(c, names) }
        var progress = FunnelProgress()
        var viewDay = TimeKey.noViewDay
        scratch.places.removeAll(keepingCapacity: true)
        scratch.added.removeAll(keepingCapacity: true)
        scratch.takenOut.removeAll(keepingCapacity: true)
        scratch.cohortAdded.removeAll(keepingCapacity: true)
        scratch.cohortTakenOut.removeAll(keepingCapacity: true)
        // The keys under window day `takenOut` are summed only by windows from a later day, which
        // end after every instant of that day: the chain's changes on it are taken out as one, at
        // its first instant, as they stand at the day's end; its changes on later days each at its instant.
        let first = events[funnel[start]].time
        var dayTakenOut = false
        func takeOutDay() {
            Self.step(progress, places: scratch.places, kind: .windowFunnel, windowDay: takenOut, viewDay: TimeKey.noViewDay, sign: -1,
                      at: first, held: &scratch.takenOut, keys: &scratch.keys, emit)
            dayTakenOut = true
        }
        var i = start
        while i < funnel.count {
            let now = events[funnel[i]].time
            if !dayTakenOut, SeriesBuckets.day(of: now) != takenOut { takeOutDay() }
            while i < funnel.count, events[funnel[i]].time == now {
                progress.record(events, funnel[i])
                if viewDay == TimeKey.noViewDay, progress.reached > 0 { viewDay = SeriesBuckets.day(of: now) }
                i += 1
            }
            while scratch.places.count < progress.byContext.count {
                let name = progress.byContext[scratch.places.count].context
                if let known = names.firstIndex(of: name) { scratch.places.append(Int32(known)) } else {
                    scratch.places.append(Int32(names.count))
                    names.append(name)
                }
            }
            Self.step(progress, places: scratch.places, kind: .windowFunnel, windowDay: added, viewDay: byView ? viewDay : TimeKey.noViewDay, sign: 1,
                      at: now, held: &scratch.added, keys: &scratch.keys, emit)
            if dayTakenOut {
                Self.step(progress, places: scratch.places, kind: .windowFunnel, windowDay: takenOut, viewDay: TimeKey.noViewDay, sign: -1, at: now,
                          held: &scratch.takenOut, keys: &scratch.keys, emit)
            }
            // (Before the first view no cohort key is kept: a series counts no funnel without one.)
            guard viewDay != TimeKey.noViewDay else { continue }
            if cohorts.added {
                Self.step(progress, places: scratch.places, kind: .cohortFunnel, windowDay: added, viewDay: viewDay, sign: 1, at: now,
                          held: &scratch.cohortAdded, keys: &scratch.keys, emit)
            }
            if cohorts.takenOut {
                Self.step(progress, places: scratch.places, kind: .cohortFunnel, windowDay: takenOut, viewDay: viewDay, sign: -1, at: now,
                          held: &scratch.cohortTakenOut, keys: &scratch.keys, emit)
            }
        }
        if !dayTakenOut { takeOutDay() }
    }

    /// One instant of a chain under one window day: the keys `progress` gives, against those `held`
    /// before (each key's change of count times `sign`); `held` becomes the new ones. Overall, a
    /// key counts the steps reached beyond what the contexts reached there (`FunnelProgress.beyondContexts`).
    private static func step(_ progress: FunnelProgress, places: [Int32], kind: TimeKey.Kind, windowDay: Int64, viewDay: Int64, sign: Int64, at now: Timestamp,
                             held: inout [HeldKey], keys: inout [HeldKey], _ emit: (ChainChange) -> Void) {
        keys.removeAll(keepingCapacity: true)
        let beyond = FunnelProgress.beyondContexts(progress.reached, progress.byContext)
        for steps in 1...FunnelProgress.steps.count where beyond[steps] != 0 {
            keys.append(HeldKey(number: TimeKey.pack(windowDay, viewDay, steps), context: -1, count: beyond[steps]))
        }
        for (c, p) in progress.byContext.enumerated() {
            keys.append(HeldKey(number: TimeKey.pack(windowDay, viewDay, TimeKey.contextStep + Int(p.reached)), context: places[c], count: 1))
        }
        for k in held {
            let count = keys.first { $0.number == k.number && $0.context == k.context }?.count ?? 0
            if count != k.count { emit(ChainChange(kind: kind, number: k.number, context: k.context, time: now, delta: (count &- k.count) &* sign)) }
        }
        for k in keys where !held.contains(where: { $0.number == k.number && $0.context == k.context }) {
            emit(ChainChange(kind: kind, number: k.number, context: k.context, time: now, delta: k.count &* sign))
        }
        swap(&held, &keys)
    }

    /// Counts, per currency, a change of the amounts from `before` to `after` (as `SeriesWalker.addDifference` adds one).
    private static func changes(_ after: [UserBooks.Amount], _ before: [UserBooks.Amount], _ kind: TimeKey.Kind, _ now: Timestamp,
                                _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        for a in after where a.money != (before.first { $0.currency == a.currency }?.money ?? .zero) {
            emit(TimeKey(kind: kind, name: a.currency), now, 1)
        }
        for b in before where !after.contains(where: { $0.currency == b.currency }) { emit(TimeKey(kind: kind, name: b.currency), now, 1) }
    }
}
