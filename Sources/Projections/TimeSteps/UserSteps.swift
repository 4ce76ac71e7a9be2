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
    package struct TransferChange: Sendable {
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
        var fold = UserFold(user: user)
        var previous = TimeContribution()
        var outs: [TransferChange] = []
        let arrivals = senders.isEmpty ? [] : Set(senders.flatMap { $0.changes.map(\.time) }).sorted()

        func effectiveState(at t: Timestamp) -> SubscriberState {
            guard !senders.isEmpty else { return fold.state }
            var s = fold.state
            for sender in senders {
                guard let out = sender.transfer(at: t), out.to == user else { continue }
                _ = decider.receiveTransfer(&s, out.subscription, at: out.time)
            }
            return s
        }
        func sample(at t: Timestamp) {
            // (Without senders the fold's own state, read in place rather than copied.)
            let c = senders.isEmpty ? TimeContribution(fold, state: fold.state, decider: decider, at: t)
                : TimeContribution(fold, state: effectiveState(at: t), decider: decider, at: t)
            guard c != previous else { return }
            previous.difference(to: c) { emit($0, t, $1 &* sign) }
            previous = c
        }

        var windows = WindowSteps(decider: decider, includeSandbox: options.includeSandbox)
        func signed(_ key: TimeKey, _ t: Timestamp, _ d: Int64) { emit(key, t, d &* sign) }
        Self.walkInstants(events: events, arrivals: arrivals, decider: decider, stateAt: effectiveState, timer: sample) { now, at in
            windows.checkRetention(before: now, state: fold.state, signed)
            for k in at {
                let before = fold.transferOut, books = fold.books, converted = fold.trialConverted
                fold.apply(events[k], decider, options)
                if fold.transferOut != before { outs.append(TransferChange(time: now, transfer: fold.transferOut)) }
                windows.event(events[k], index: k, now: now, fold: fold, books: books, converted: converted, signed)
            }
            if !at.isEmpty {
                windows.notifications(fold.notifications, now: now, next: at.upperBound < events.count ? events[at.upperBound].time : nil, signed)
            }
            sample(at: now)
        }
        windows.checkRetention(before: nil, state: fold.state, signed)
        windows.finish(events, signed)
        return outs
    }

    /// A user's instants in order: each instant of an event or an arrival (`step(now, at)`, `at` the
    /// indices of the events at that instant, empty for an arrival alone), and between two of them
    /// the status instants (`timer(t)`) of the state at the first, as `stateAt` gives it.
    static func walkInstants(events: [Event], arrivals: [Timestamp], decider: PlanDecider, stateAt: (Timestamp) -> SubscriberState,
                             timer: (Timestamp) -> Void, step: (_ now: Timestamp, _ at: Range<Int>) -> Void) {
        var i = 0, j = 0
        var cursor: Timestamp?
        while true {
            var next: Timestamp?
            if i < events.count { next = events[i].time }
            if j < arrivals.count { next = min(next ?? arrivals[j], arrivals[j]) }
            if let cursor {
                for t in statusInstants(stateAt(cursor), decider: decider, after: cursor, before: next) { timer(t) }
            }
            guard let now = next else { break }
            let first = i
            while i < events.count, events[i].time == now { i += 1 }
            while j < arrivals.count, arrivals[j] == now { j += 1 }
            step(now, first..<i)
            cursor = now
        }
    }

    /// The instants after `after` (and before `before`) at which the plan status of `state` may
    /// change without an event: a superset of `PlanDecider.timers`.
    static func statusInstants(_ state: SubscriberState, decider: PlanDecider, after: Timestamp, before: Timestamp?) -> [Timestamp] {
        guard let sub = state.subscription else { return [] }
        let candidates: InlineArray<5, Timestamp?> = [sub.endedAt, sub.billingIssueAt, sub.graceEndsAt, sub.expires, sub.expires + decider.unverifiedGrace]
        var out: [Timestamp] = []
        for i in candidates.indices {
            guard let t = candidates[i], t > after, before.map({ t < $0 }) ?? true, !out.contains(t) else { continue }
            out.append(t)
        }
        return out.count < 2 ? out : out.sorted()
    }
}
