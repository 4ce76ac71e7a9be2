import SubscriptionDomain

/// One user of a customer list, as of the list's instant (the fields of `state` a list filters by).
public struct CustomerRow: Sendable, Equatable {
    public var user: String
    public var planState: PlanState
    public var graceReason: GraceReason?
    public var graceEndsAt: Timestamp?
    public var product: String?
    public var tier: String
    public var expiresAt: Timestamp?
    public var autoRenew: Bool?
    public var billingIssue: Bool
    /// With `churnedSince`: when the user stopped being an active paid subscriber.
    public var churnedAt: Timestamp?
}
