import SubscriptionDomain

/// One user's history as a full replay reads it: their own events in effect order, then the
/// subscriptions other users transferred to them, handed over after their own events.
public struct UserHistory: Sendable {
    public var user: String
    /// The user's own stream.
    public var timeline: UserTimeline
    /// Transfers to this user folded by the instant asked, in the order a full replay hands them
    /// over (by sender id); one is received only if the user has no subscription running then.
    public var transfersIn: [TransferIn]

    /// The state as of `instant`: the own events folded, then the transfers handed over.
    public func state(_ decider: PlanDecider, at instant: Timestamp) -> SubscriberState {
        var s = timeline.state(decider, user: user, at: instant)
        for t in transfersIn where t.stored.event.time <= instant {
            decider.evolve(&s, t.received)
        }
        return s
    }
}
