import SubscriptionDomain

/// One user's contribution to every report as a step function of the instant asked: their events
/// folded in effect order with the same `UserFold` as a replay, and their contribution sampled
/// after each instant at which it can change (an event time, the arrival or withdrawal of a
/// subscription transferred to them, and the instants their plan status compares with: end,
/// billing issue, grace end, expiry, expiry plus the unverified grace). Each change is given to
/// the sink as (key, instant, difference); the contribution as of an instant T is then the sum of
/// the differences at or before T, which is what a replay as of T folds for this user.
package struct UserSteps {
    /// A sender's `transferOut` as it changes with the instant: after `time`, it is `transfer`.
    package struct TransferChange: Sendable, Equatable {
        var time: Timestamp
        package var transfer: UserFold.Transfer?
    }

    /// One sender's changes, for a recipient: the subscriptions are handed over senders in id order.
    package struct Sender: Sendable {
        package var user: String
        package var changes: [TransferChange]

        /// The sender's `transferOut` as of `t`.
        func transfer(at t: Timestamp) -> UserFold.Transfer? {
            var out: UserFold.Transfer?
            for c in changes {
                guard c.time <= t else { break }
                out = c.transfer
            }
            return out
        }

        package init(user: String, changes: [TransferChange]) {
            self.user = user
            self.changes = changes
        }
    }

    let decider: PlanDecider
    let options: ReplayOptions

    /// Walks as a replay under `profile` does; with `includeSandbox`, one that counts sandbox events too.
    package init(profile: Profile, includeSandbox: Bool = false) {
        decider = PlanDecider(profile: profile)
        var options = ReplayOptions(profile: profile, asOf: Timestamp(nanoseconds: .max))
        options.includeSandbox = includeSandbox
        self.options = options
    }

    /// Walks `user`'s events (in effect order), with the subscriptions `senders` (in id order)
    /// transferred to them, giving each change times `sign` to `emit`; returns how the user's own
    /// `transferOut` changed (for the recipients' walk).
    package func walk(_ user: String, events: [Event], senders: [Sender] = [], sign: Int64 = 1,
              _ emit: (TimeKey, Timestamp, Int64) -> Void) -> [TransferChange] {
        var scratch = WindowSteps.ChainScratch()
        return walk(user, events: events, senders: senders, sign: sign, scratch: &scratch, emit)
    }

    /// The same with the window funnels' working lists `scratch`, kept by a walk of many users.
    package func walk(_ user: String, events: [Event], senders: [Sender] = [], sign: Int64 = 1, scratch: inout WindowSteps.ChainScratch,
                      _ emit: (TimeKey, Timestamp, Int64) -> Void) -> [TransferChange] {
        var walk = start(user, senders: senders)
        advance(&walk, events: events, sign: sign, emit)
        _ = finish(&walk, events: events, sign: sign, scratch: &scratch, emit)
        // (The changes taken out of the walk, which is then let go where it is: returning
        // `finish`'s copied the whole walk aside to let it go, per user.)
        var outs: [TransferChange] = []
        swap(&outs, &walk.outs)
        return outs
    }

    /// One user's walk in progress (`start`, `advance`, `finish`): a value, so that a walk can be
    /// copied at an instant and each copy taken on under other rules (`forked(_:)`).
    package struct Walk {
        var fold: UserFold
        /// The contribution last sampled.
        var previous = TimeContribution()
        var outs: [TransferChange] = []
        var windows: WindowSteps
        let senders: [Sender]
        /// The instants at which a sender's `transferOut` changes, in order.
        let arrivals: [Timestamp]
        var position = InstantCursor()

        /// The window funnels' events so far (a fork whose funnel events are its original's gives the same window funnels).
        package var funnelEvents: [Int] { windows.funnelEvents }

        /// Whether this walk and `other` (of the same user and events, at the same place) hold the
        /// same fold, contribution and pending changes: taken on by rules that fold what is left
        /// alike, they give the same changes from here on.
        package func holdsTheSame(as other: Walk) -> Bool {
            position == other.position && fold == other.fold && previous == other.previous && outs == other.outs
                && senders.isEmpty && other.senders.isEmpty && windows.holdsTheSame(as: other.windows)
        }
    }

    /// A walk of `user` before any event.
    package func start(_ user: String, senders: [Sender] = []) -> Walk {
        Walk(fold: UserFold(user: user), windows: WindowSteps(decider: decider, includeSandbox: options.includeSandbox), senders: senders,
             arrivals: senders.isEmpty ? [] : Set(senders.flatMap { $0.changes.map(\.time) }).sorted())
    }

    /// `walk` (this walk's state so far) to be taken on under these rules: what it holds was
    /// folded under other rules, so forking is for an instant before which both fold alike.
    package func forked(_ walk: Walk) -> Walk {
        var w = walk
        w.windows.decider = decider
        return w
    }

    /// Takes the walk through the instants before `limit` (all, when nil) and the status instants
    /// between them, giving each change times `sign` to `emit`.
    package func advance(_ w: inout Walk, events: [Event], before limit: Timestamp? = nil, sign: Int64 = 1,
                         _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        advance(&w, events: events, before: limit, sampling: true, sign: sign, emit)
    }

    /// Takes the walk through the instants before `limit` as `advance` does, but gives nothing and
    /// samples the contribution only at the last instant stepped (what later changes are from):
    /// for a stretch whose changes would cancel out.
    package func skip(_ w: inout Walk, events: [Event], before limit: Timestamp) {
        advance(&w, events: events, before: limit, sampling: false) { _, _, _ in }
        guard let last = w.position.last else { return }
        w.previous = TimeContribution(w.fold, state: effectiveState(w, at: last), decider: decider, at: last)
    }

    /// The walk's user's state with what senders handed them as of `t`.
    private func effectiveState(_ w: borrowing Walk, at t: Timestamp) -> SubscriberState {
        guard !w.senders.isEmpty else { return w.fold.state }
        var s = w.fold.state
        for sender in w.senders {
            guard let out = sender.transfer(at: t), out.to == w.fold.user else { continue }
            _ = decider.receiveTransfer(&s, out.subscription, at: out.time)
        }
        return s
    }

    private func advance(_ w: inout Walk, events: [Event], before limit: Timestamp?, sampling: Bool, sign: Int64 = 1,
                         _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        func signed(_ key: TimeKey, _ t: Timestamp, _ d: Int64) { emit(key, t, d &* sign) }
        // (What the fold reads of the options, taken once as a small value: the options, handed
        // to each event's `apply`, were copied whole for each.)
        let counting = UserFold.Counting(options)
        var position = w.position
        defer { w.position = position }
        while let step = position.next(events: events, arrivals: w.arrivals, before: limit) {
            if sampling, let last = step.last {
                // Without senders, the fold's own state is read in place (not copied per instant).
                let instants = w.senders.isEmpty ? Self.statusInstants(w.fold.state, decider: decider, after: last, before: step.now)
                    : Self.statusInstants(effectiveState(w, at: last), decider: decider, after: last, before: step.now)
                for k in 0..<instants.count { sample(&w, at: instants[k], sign: sign, emit) }
            }
            guard let now = step.now else { break }
            w.windows.checkRetention(before: now, state: w.fold.state, signed)
            for k in step.at {
                // Taken once: an array's element handed to a call is copied per call (twice per event, measured).
                let e = events[k]
                // (The books held aside only around an event that can change them: three arrays retained and let go.)
                let books = UserBooks.records(e.type) ? w.fold.books : nil, converted = w.fold.trialConverted
                // Only a transfer event sets `transferOut` (UserFold.apply): the others are folded
                // without one held around them (even a nil one was set up and let go per event).
                if e.type == .transfer {
                    let before = w.fold.transferOut
                    w.fold.apply(e, decider, counting)
                    if w.fold.transferOut != before { w.outs.append(TransferChange(time: now, transfer: w.fold.transferOut)) }
                } else {
                    w.fold.apply(e, decider, counting)
                }
                w.windows.event(e, index: k, now: now, fold: w.fold, books: books, converted: converted, signed)
            }
            if !step.at.isEmpty {
                w.windows.notifications(w.fold.notifications, now: now, next: step.at.upperBound < events.count ? events[step.at.upperBound].time : nil, signed)
            }
            if sampling { sample(&w, at: now, sign: sign, emit) }
        }
    }

    /// Brings the walk's contribution up to its fold as of `t`, giving each change times `sign`.
    private func sample(_ w: inout Walk, at t: Timestamp, sign: Int64, _ emit: (TimeKey, Timestamp, Int64) -> Void) {
        // (Without senders the fold's own state, read in place rather than copied.)
        if w.senders.isEmpty {
            w.previous.update(to: w.fold, state: w.fold.state, decider: decider, at: t) { emit($0, t, $1 &* sign) }
        } else {
            let state = effectiveState(w, at: t)
            w.previous.update(to: w.fold, state: state, decider: decider, at: t) { emit($0, t, $1 &* sign) }
        }
    }

    /// Ends a walk taken through every instant (`advance` without a limit): the retention checks
    /// after the last event and the window funnels; returns how the user's own `transferOut` changed.
    package func finish(_ w: inout Walk, events: [Event], sign: Int64 = 1, windowFunnels: Bool = true,
                        _ emit: (TimeKey, Timestamp, Int64) -> Void) -> [TransferChange] {
        var scratch = WindowSteps.ChainScratch()
        return finish(&w, events: events, sign: sign, windowFunnels: windowFunnels, scratch: &scratch, emit)
    }

    /// The same with the window funnels' working lists `scratch`.
    package func finish(_ w: inout Walk, events: [Event], sign: Int64 = 1, windowFunnels: Bool = true, scratch: inout WindowSteps.ChainScratch,
                        _ emit: (TimeKey, Timestamp, Int64) -> Void) -> [TransferChange] {
        func signed(_ key: TimeKey, _ t: Timestamp, _ d: Int64) { emit(key, t, d &* sign) }
        w.windows.checkRetention(before: nil, state: w.fold.state, signed)
        if windowFunnels { w.windows.finish(events, scratch: &scratch, signed) }
        return w.outs
    }

    /// Where a walk over a user's instants stands: the next event and arrival, and the last instant stepped.
    package struct InstantCursor: Sendable, Equatable {
        var event = 0
        var arrival = 0
        var last: Timestamp?

        /// One step of a walk over a user's instants: first the status instants after `last` (the
        /// instant stepped before, nil: none) and before `now`, then `now` (nil: there is none left,
        /// only the status instants after `last`) with the events `at` (empty for an arrival alone).
        struct Step {
            var last: Timestamp?
            var now: Timestamp?
            var at: Range<Int>
        }

        /// The next step, and the cursor moved past it; nil when the next instant is at or after
        /// `limit` (the status instants after the last one stepped are then left for later). With
        /// no limit, the last step has no `now`, and the cursor stays where it is.
        mutating func next(events: [Event], arrivals: [Timestamp], before limit: Timestamp?) -> Step? {
            var next: Timestamp?
            if event < events.count { next = events[event].time }
            if arrival < arrivals.count { next = min(next ?? arrivals[arrival], arrivals[arrival]) }
            if let limit, next.map({ $0 >= limit }) ?? true { return nil }
            guard let now = next else { return Step(last: last, now: nil, at: event..<event) }
            let first = event
            while event < events.count, events[event].time == now { event += 1 }
            while arrival < arrivals.count, arrivals[arrival] == now { arrival += 1 }
            defer { last = now }
            return Step(last: last, now: now, at: first..<event)
        }
    }

    /// A user's instants in order: each instant of an event or an arrival (`step(now, at)`, `at` the
    /// indices of the events at that instant, empty for an arrival alone), and between two of them
    /// the status instants (`timer(t)`) of the state at the first, as `stateAt` gives it.
    static func walkInstants(events: [Event], arrivals: [Timestamp], decider: PlanDecider, stateAt: (Timestamp) -> SubscriberState,
                             timer: (Timestamp) -> Void, step: (_ now: Timestamp, _ at: Range<Int>) -> Void) {
        var position = InstantCursor()
        while let s = position.next(events: events, arrivals: arrivals, before: nil) {
            if let last = s.last {
                let instants = statusInstants(stateAt(last), decider: decider, after: last, before: s.now)
                for k in 0..<instants.count { timer(instants[k]) }
            }
            guard let now = s.now else { break }
            step(now, s.at)
        }
    }

    /// The instants after `after` (and before `before`) at which the plan status of `state` may
    /// change without an event: a superset of `PlanDecider.timers`.
    static func statusInstants(_ state: borrowing SubscriberState, decider: PlanDecider, after: Timestamp, before: Timestamp?) -> StatusInstants {
        var out = StatusInstants()
        // The production subscription's fields read in place (`subscription` would copy it).
        guard let i = state.index(of: .production) else { return out }
        func consider(_ t: Timestamp?) {
            guard let t, t > after, before.map({ t < $0 }) ?? true else { return }
            out.insert(t)
        }
        consider(state.subscriptions[i].endedAt)
        consider(state.subscriptions[i].billingIssueAt)
        consider(state.subscriptions[i].graceEndsAt)
        consider(state.subscriptions[i].expires)
        consider(state.subscriptions[i].expires + decider.unverifiedGrace)
        return out
    }

    /// At most five instants, in order and distinct, kept inline: a walk asks for them between
    /// every two of a user's instants, so they are not an array allocated each time.
    struct StatusInstants {
        private(set) var count = 0
        private var times = InlineArray<5, Timestamp>(repeating: Timestamp(nanoseconds: 0))

        subscript(k: Int) -> Timestamp { times[k] }

        /// Puts `t` in its place (nothing when it is there already; at most five are ever given).
        mutating func insert(_ t: Timestamp) {
            var at = count
            for k in 0..<count {
                if times[k] == t { return }
                if times[k] > t { at = k; break }
            }
            var k = count
            while k > at { times[k] = times[k - 1]; k -= 1 }
            times[at] = t
            count += 1
        }
    }
}
