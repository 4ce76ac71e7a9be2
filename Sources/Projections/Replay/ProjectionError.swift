import EventStore

/// A record in the log that is not a valid event (the log was written by something else, or damaged).
public struct ProjectionError: Error, Sendable, CustomStringConvertible {
    public var position: UInt64
    public var reason: String
    public var description: String { "log position \(position): \(reason)" }

    package init(position: UInt64, reason: String) {
        self.position = position
        self.reason = reason
    }
}
