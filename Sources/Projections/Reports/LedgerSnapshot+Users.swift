import SubscriptionDomain

extension LedgerSnapshot {
    /// The number of users the snapshot holds.
    public var userCount: Int { users.count }

    /// A user's folded facts as of `options.asOf` (nil if the log holds none of their events),
    /// for read models kept outside the log (a database table) that need more than `plan(of:)`.
    public func subscriber(_ user: String) -> SubscriberState? { users[user]?.state }

    /// Runs `body` on every user's folded facts, partition after partition.
    public func forEachSubscriber(_ body: (SubscriberState) -> Void) {
        users.forEachFold { body($0.state) }
    }

    /// The users whose plan may differ between `earlier` and this snapshot's instant without a
    /// new log record: an event of theirs took effect after `earlier` (it was later than the
    /// earlier instant, or a transfer handed them a subscription then), or a timer fired in
    /// between (a trial end, a grace end, an expiry). With the users of the records appended
    /// since, this is every user whose state as of `options.asOf` can differ from the state
    /// as of `earlier` (what an incremental sink must write again).
    public func usersChanged(after earlier: Timestamp) -> [String] {
        var out: [String] = []
        let now = options.asOf
        users.forEachFold { f in
            let s = f.state
            if let last = s.lastEventTime, last > earlier, last <= now { out.append(s.user); return }
            if !decider.timers(s, after: earlier, upTo: now).isEmpty { out.append(s.user) }
        }
        return out
    }
}
