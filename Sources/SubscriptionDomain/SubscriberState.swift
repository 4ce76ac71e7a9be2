/// One auto-renewable subscription as the log describes it (facts, not yet evaluated at an instant).
public struct Subscription: Sendable, Equatable, Codable {
    public var product: String
    public var group: String
    public var originalTransaction: String
    /// The current period's transaction.
    public var transaction: String
    public var startedAt: Timestamp
    public var expires: Timestamp
    public var autoRenew = true
    /// When a cancellation turned auto-renew off (rules CANCEL, CH25 L590); nil while it is on
    /// (an uncancellation or a renewal turns it back on and clears it).
    public var autoRenewOffAt: Timestamp? = nil
    /// The current period is a free trial.
    public var isTrial: Bool
    /// Access was ended by an event at this instant (expiration, refund, revoke, transfer).
    public var endedAt: Timestamp?
    public var endedBy: Rule?
    public var refundedTransaction: String?
    public var billingIssueAt: Timestamp?
    public var graceEndsAt: Timestamp?
    /// Paused at this instant (`pause`): access runs to `expires`, then stops with no unverified
    /// grace until a renewal resumes it.
    public var pausedAt: Timestamp?
    /// When the store means to resume the paused subscription, as the pause reported it.
    public var resumesAt: Timestamp?
    /// A change waiting for the next renewal.
    public var pendingProduct: String?
    public var environment: StoreEnvironment
    /// Price of the current period, as reported.
    public var price: Money?
    public var currency: String?
    /// A family member's access through Family Sharing: not a sale (no revenue, no MRR, no churn).
    public var familyShared = false
    /// Access given by a temporary entitlement grant (TEMPORARY-GRANT) while the store confirms
    /// the purchase: no subscription (not active, no MRR, no churn, no retention cohort). The
    /// confirmed purchase replaces it; a renewal of it is the store's charge and clears it.
    public var temporaryGrant = false

    /// Access that is not the user's own subscription (a family member's, or a temporary grant):
    /// the entitlement while it runs, but no sale, no active subscription, no MRR, no churn.
    public var accessOnly: Bool { familyShared || temporaryGrant }
}

/// Everything the log says about one user, folded in effect order.
public struct SubscriberState: Sendable, Equatable, Codable {
    public var user: String
    public var hasAccount = false
    public var everPurchased = false
    /// The user's auto-renewable subscriptions: at most one per environment, production first.
    /// (Most users have none: an empty list costs one word per user.)
    public var subscriptions: [Subscription] = []

    /// The production subscription.
    public var subscription: Subscription? {
        get { index(of: .production).map { subscriptions[$0] } }
        set { replace(.production, with: newValue) }
    }
    /// The sandbox subscription, kept apart from production.
    public var sandbox: Subscription? {
        get { index(of: .sandbox).map { subscriptions[$0] } }
        set { replace(.sandbox, with: newValue) }
    }
    /// Where the subscription of `environment` is in `subscriptions` (production first, sandbox last).
    public func index(of environment: StoreEnvironment) -> Int? {
        switch environment {
        case .production: subscriptions.first?.environment == .production ? 0 : nil
        case .sandbox: subscriptions.last?.environment == .sandbox ? subscriptions.count - 1 : nil
        }
    }
    /// Whether the production subscription is access only (`Subscription.accessOnly`: a family
    /// member's, a temporary grant), read in place (`subscription` would copy it); false without one.
    public var productionIsAccessOnly: Bool { index(of: .production).map { subscriptions[$0].accessOnly } ?? false }
    /// Whether the production subscription has an unresolved billing issue.
    public var hasBillingIssue: Bool {
        guard let i = index(of: .production) else { return false }
        return subscriptions[i].billingIssueAt != nil
    }
    /// Transactions of sandbox purchases and renewals, to route later events to the sandbox subscription.
    public var sandboxTransactions: [String] = []
    /// Subscription groups in which the user has subscribed (no second trial there).
    public var trialUsedGroups: [String] = []
    public var credits = 0
    public var consumables: [String: Int] = [:]
    /// Transactions already applied (a second report of one counts once). Small arrays: a user has few.
    public var seenTransactions: [String] = []
    public var disabledCategories: [String] = []
    /// The rule the last event applied.
    public var rule = Rule.initial
    /// The time of the last event folded.
    public var lastEventTime: Timestamp?

    public init(user: String) { self.user = user }

    /// Records a transaction; false if it was already seen.
    mutating func see(_ transaction: String) -> Bool {
        if seenTransactions.contains(transaction) { return false }
        seenTransactions.append(transaction)
        return true
    }

    /// Puts `sub` in the place of the subscription of `environment` (which it takes as its own).
    private mutating func replace(_ environment: StoreEnvironment, with sub: Subscription?) {
        var sub = sub
        sub?.environment = environment
        if let i = index(of: environment) {
            if let sub { subscriptions[i] = sub } else { subscriptions.remove(at: i) }
        } else if let sub {
            if environment == .production { subscriptions.insert(sub, at: 0) } else { subscriptions.append(sub) }
        }
    }

    mutating func markTrialUsed(_ group: String) {
        if !trialUsedGroups.contains(group) { trialUsedGroups.append(group) }
    }
}

extension Subscription {
    /// A subscription with its identifying facts; the rest (auto-renew on, nothing ended, no
    /// billing issue, no price) is set field by field. For readers of stored projections.
    public init(product: String, group: String, originalTransaction: String, transaction: String,
                startedAt: Timestamp, expires: Timestamp, isTrial: Bool, environment: StoreEnvironment) {
        self.init(product: product, group: group, originalTransaction: originalTransaction, transaction: transaction,
                  startedAt: startedAt, expires: expires, isTrial: isTrial, environment: environment, price: nil, currency: nil)
    }
}
