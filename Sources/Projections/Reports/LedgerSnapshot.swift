import SubscriptionDomain

/// The read models of one replay: plan states, counts, funnel, notification schedule, revenue.
public struct LedgerSnapshot: Sendable {
    public let options: ReplayOptions
    package var users: UserPartitions
    /// The last log position folded.
    public let headPosition: UInt64

    /// Built once: views of a million users share it.
    package let decider: PlanDecider

    package init(options: ReplayOptions, users: UserPartitions, headPosition: UInt64) {
        self.options = options
        self.users = users
        self.headPosition = headPosition
        decider = PlanDecider(profile: options.profile)
    }

    /// All user ids, sorted.
    public var userIDs: [String] { users.users.sorted() }

    /// A user's plan as of `options.asOf`.
    public func plan(of user: String) -> PlanView {
        decider.view(users.state(of: user) ?? SubscriberState(user: user), at: options.asOf)
    }

    /// The plan of a fold of this snapshot, lent in place (`UserPartitions.forEachFold`).
    func plan(of fold: LentFold) -> PlanView { decider.view(fold.state, at: options.asOf) }

    /// Analytics counts: every metric of CONTRACT.md §3, zero when nothing happened.
    public func counts() -> [String: Int] {
        var low = SIMD16<UInt64>()
        var last: UInt64 = 0
        users.forEachFold { fold in
            low &+= SIMD16<UInt64>(truncatingIfNeeded: fold.counts.low)
            last &+= UInt64(fold.counts.last)
        }
        var out: [String: Int] = [:]
        for m in Metric.all { out[m.name] = Int(m.slot < 16 ? low[m.slot] : last) }
        return out
    }

    /// The metric names, in the order people read them.
    public static let metricNames: [String] = MetricCounts.names

    /// The notification schedule as of `options.asOf`, by fire time then user.
    public func notifications() -> [ScheduledNotification] {
        let texts = NotificationTexts(options.profile)
        // Ties on time and user go by the kind's tag (payment_failed first), compared without building it.
        var all: [ScheduledNotification] = []
        users.forEachFold { UserFold.schedule($0.notifications, of: $0.user, at: options.asOf, texts: texts, into: &all) }
        // A closure, not the function passed by name: the sort is then specialized with the
        // comparison inlined; given the function as a value it calls it per comparison with
        // both entries copied (a release build measured the sort 3 times slower).
        return all.sorted { ScheduledNotification.inScheduleOrder($0, $1) }
    }
}
