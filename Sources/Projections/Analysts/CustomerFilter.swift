import SubscriptionDomain

/// Which users a customer list keeps (every condition given must hold).
public struct CustomerFilter: Sendable, Equatable {
    public var planState: PlanState?
    public var graceReason: GraceReason?
    public var billingIssue: Bool?
    public var autoRenew: Bool?
    /// In a trial that ends (its `expiresAt`) before this instant.
    public var trialEndsBefore: Timestamp?
    /// Stopped being an active paid subscriber at or after this instant, and not active again by the list's instant.
    public var churnedSince: Timestamp?
    public var product: String?
    public var tier: String?

    public init() {}
}
