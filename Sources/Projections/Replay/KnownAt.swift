import SubscriptionDomain

/// What the log held at an instant of record time (`--as-known-at`): a log only grows at its end,
/// so what it held at T is a prefix, the records before the first one recorded after T. A report
/// as known at T is the report over that prefix. (Its reads of the log: KnownAt+Log.swift.)
public enum KnownAt {
    /// A record the log did not hold at the instant asked.
    public struct LateRecord: Sendable, Equatable {
        public var position: UInt64
        public var id: String
        public var type: String
        public var user: String
        /// When the event took effect, and when the log recorded it.
        public var time: Timestamp
        public var recorded: Timestamp

        public init(position: UInt64, id: String, type: String, user: String, time: Timestamp, recorded: Timestamp) {
            (self.position, self.id, self.type, self.user, self.time, self.recorded) = (position, id, type, user, time, recorded)
        }
    }
}
