/// An event as stored: the event, its log position, and when the log recorded it.
public struct StoredEvent: Sendable, Equatable {
    public var event: Event
    public var position: UInt64
    public var recorded: Timestamp
    public init(event: Event, position: UInt64, recorded: Timestamp) {
        self.event = event
        self.position = position
        self.recorded = recorded
    }
}

/// One user's events in effect order: by `time`, equal times in log order; repeated ids dropped.
/// An event is *late* when it was appended after an event of the same user with a later time.
public struct UserTimeline: Sendable {
    public private(set) var entries: [Entry]

    /// An event in effect order, marked late or not.
    public struct Entry: Sendable, Equatable {
        public var stored: StoredEvent
        public var isLate: Bool
    }

    /// Builds the timeline from a user's stored events in any order. Works on indexes, so each
    /// event is copied once, into its entry.
    public init(_ events: [StoredEvent]) {
        var byPosition = Array(events.indices)
        if !events.indices.dropFirst().allSatisfy({ events[$0 - 1].position < events[$0].position }) {
            byPosition.sort { events[$0].position < events[$1].position }
        }
        var seen: Set<String> = []
        byPosition.removeAll { !seen.insert(events[$0].event.id).inserted }
        var late = Array(repeating: false, count: events.count)
        var latest: Timestamp?
        for i in byPosition {
            let time = events[i].event.time
            if let latest, time < latest { late[i] = true }
            latest = max(latest ?? time, time)
        }
        // Stable by construction: equal times keep log order.
        byPosition.sort { a, b in
            events[a].event.time != events[b].event.time ? events[a].event.time < events[b].event.time : events[a].position < events[b].position
        }
        entries = byPosition.map { Entry(stored: events[$0], isLate: late[$0]) }
    }

    /// Only the events recorded by `instant` (what the system knew then).
    public func known(at instant: Timestamp) -> UserTimeline {
        var t = self
        t.entries.removeAll { $0.stored.recorded > instant }
        return t
    }

    /// The folded state from the events in effect by `instant`.
    public func state(_ decider: PlanDecider, user: String, at instant: Timestamp) -> SubscriberState {
        var s = decider.initial(user: user)
        for e in entries where e.stored.event.time <= instant { s = decider.evolve(s, e.stored.event) }
        return s
    }

    /// The plan as of `instant`.
    public func view(_ decider: PlanDecider, user: String, at instant: Timestamp) -> PlanView {
        decider.view(state(decider, user: user, at: instant), at: instant)
    }
}
