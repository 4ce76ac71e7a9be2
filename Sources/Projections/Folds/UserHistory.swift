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
    /// The other streams read as this user's: where events that arrived under this id were filed
    /// (`AppUserAlias`), sorted; empty for most users.
    public var aliasedStreams: [String] = []

    /// The users whose `transfer` names this user (or an aliased stream), received or not.
    public var transferSenders: [String] = []
    /// The times of transfers to the user dated after the instant the history was read as of
    /// (not handed over yet: their senders still hold the subscription then).
    public var transfersAhead: [Timestamp] = []

    /// Every user whose stream this history read: the user, the aliased streams, and the senders
    /// of transfers to them (what an answer built from it depends on).
    public var sources: [String] { [user] + aliasedStreams + transferSenders }

    /// The state as of `instant`: the own events folded, then the transfers handed over.
    public func state(_ decider: PlanDecider, at instant: Timestamp) -> SubscriberState {
        var s = timeline.state(decider, user: user, at: instant)
        for t in transfersIn where t.stored.event.time <= instant {
            decider.evolve(&s, t.received)
        }
        return s
    }

    /// The first instant after `now` at which an answer built from this history as of `now` can
    /// change without a new record: the state's next timer (trial end, grace end, expiry), or a
    /// record or received transfer dated after `now`; nil when none is ahead. `state` is this
    /// history's state as of `now`.
    public func nextChange(after now: Timestamp, state: SubscriberState, decider: PlanDecider) -> Timestamp? {
        var instants: [Timestamp] = []
        if let timer = decider.timers(state, after: now, upTo: Timestamp(nanoseconds: .max)).first { instants.append(timer) }
        if let later = timeline.entries.first(where: { $0.stored.event.time > now }) { instants.append(later.stored.event.time) }
        instants += (transfersIn.map(\.stored.event.time) + transfersAhead).filter { $0 > now }
        return instants.min()
    }
}
