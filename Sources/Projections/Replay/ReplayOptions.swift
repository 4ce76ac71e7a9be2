import SubscriptionDomain

/// What a replay folds and how: the profile, the instant states are asked at, the analytics
/// window, sandbox handling, and the number of partitions folded in parallel.
public struct ReplayOptions: Sendable {
    public var profile: Profile
    /// States, schedules and revenue are as of this instant; later events are not folded.
    public var asOf: Timestamp
    /// Analytics counts and funnels include events with `from <= time < to`.
    public var from: Timestamp?
    public var to: Timestamp?
    /// Count sandbox events too (production only by default).
    public var includeSandbox = false
    /// Users are split by a hash of their id into this many partitions, folded in parallel.
    public var partitions = 1
    /// Read events from the event cache next to the projections when it matches the log's head,
    /// instead of parsing every JSON payload; off, every record of the log is decoded.
    public var eventCache = true
    /// Build the event cache first when it is missing or stale. Off by default: building costs
    /// about as much as one rebuild from the log, and pays from the second rebuild over the same head.
    public var buildEventCache = false

    public init(profile: Profile, asOf: Timestamp) {
        self.profile = profile
        self.asOf = asOf
    }

    func inWindow(_ t: Timestamp) -> Bool {
        (from.map { t >= $0 } ?? true) && (to.map { t < $0 } ?? true)
    }
}
