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

    /// Builds the timeline from a user's stored events in any order.
    public init(_ events: [StoredEvent]) {
        var byPosition = events.sorted { $0.position < $1.position }
        var seen: Set<String> = []
        byPosition.removeAll { !seen.insert($0.event.id).inserted }
        var latest: Timestamp?
        var late: [Bool] = []
        for e in byPosition {
            late.append(latest.map { e.event.time < $0 } ?? false)
            latest = max(latest ?? e.event.time, e.event.time)
        }
        entries = zip(byPosition, late).map { Entry(stored: $0, isLate: $1) }
        entries.sort { a, b in
            a.stored.event.time != b.stored.event.time ? a.stored.event.time < b.stored.event.time : a.stored.position < b.stored.position
        }
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
