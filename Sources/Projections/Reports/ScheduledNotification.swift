import SubscriptionDomain

/// One entry of the notification schedule (seed 004 CH27).
public struct ScheduledNotification: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case trialEnding = "trial_ending", paymentFailed = "payment_failed" }
    public enum Status: String, Sendable, Codable { case scheduled, due, cancelled }
    public var user: String
    public var kind: Kind
    public var fireAt: Timestamp
    public var deepLink: String
    public var copy: String
    /// `push` and `in_app`; only `in_app` when the user disabled billing notifications (CH27 L204).
    public var channels: [String]
    public var status: Status

    public init(user: String, kind: Kind, fireAt: Timestamp, deepLink: String, copy: String, channels: [String], status: Status) {
        (self.user, self.kind, self.fireAt, self.deepLink, self.copy, self.channels, self.status) = (user, kind, fireAt, deepLink, copy, channels, status)
    }
}
