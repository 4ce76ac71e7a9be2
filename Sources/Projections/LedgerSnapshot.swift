import SubscriptionDomain

/// The read models of one replay: plan states, counts, funnel, notification schedule, revenue.
public struct LedgerSnapshot: Sendable {
    public let options: ReplayOptions
    var users: [String: UserFold]
    /// The last log position folded.
    public let headPosition: UInt64

    var decider: PlanDecider { PlanDecider(profile: options.profile) }

    /// All user ids, sorted.
    public var userIDs: [String] { users.keys.sorted() }

    /// A user's plan as of `options.asOf`.
    public func plan(of user: String) -> PlanView {
        decider.view(users[user]?.state ?? SubscriberState(user: user), at: options.asOf)
    }

    /// Analytics counts: every metric of CONTRACT.md §3, zero when nothing happened.
    public func counts() -> [String: Int] {
        var out: [String: Int] = [:]
        for name in Self.metricNames { out[name] = 0 }
        for fold in users.values { for (k, v) in fold.counts { out[k, default: 0] += v } }
        return out
    }

    /// The metric names, in the order people read them.
    public static let metricNames: [String] = EventType.countedAppEvents.map(\.rawValue)
        + ["trial_started", "subscription_started", "renewal", "trial_converted", "cancellation", "billing_issue", "refund", "expiration"]

    /// The notification schedule as of `options.asOf`, by fire time then user.
    public func notifications() -> [ScheduledNotification] {
        users.values.flatMap { $0.schedule(at: options.asOf) }
            .sorted { ($0.fireAt, $0.user, $0.kind.rawValue) < ($1.fireAt, $1.user, $1.kind.rawValue) }
    }
}
