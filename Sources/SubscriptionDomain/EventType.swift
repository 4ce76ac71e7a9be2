/// The catalog's event types. The raw values are the storage contract: frozen, never renamed.
public enum EventType: String, Sendable, CaseIterable, Hashable {
    // Store lifecycle events: these alone decide entitlements.
    case purchase
    case renewal
    case cancellation
    case uncancellation
    case billingIssue = "billing_issue"
    case expiration
    case refund
    case refundReversed = "refund_reversed"
    case productChange = "product_change"
    case revoke
    case pause
    case transfer
    case consumablePurchase = "consumable_purchase"
    case creditsUsed = "credits_used"
    // Account and app events: analytics and notifications.
    case accountCreated = "account_created"
    case accountDeleted = "account_deleted"
    case paywallViewed = "paywall_viewed"
    case paywallCtaTapped = "paywall_cta_tapped"
    case purchaseStarted = "purchase_started"
    case purchasePending = "purchase_pending"
    case purchaseSuccess = "purchase_success"
    case purchaseFailed = "purchase_failed"
    case restoreClicked = "restore_clicked"
    case restoreSuccess = "restore_success"
    case restoreFailed = "restore_failed"
    case notificationsDisabled = "notifications_disabled"
    case notificationsEnabled = "notifications_enabled"

    /// Whether this is a store lifecycle event (entitlement-deciding).
    public var isStoreEvent: Bool {
        switch self {
        case .purchase, .renewal, .cancellation, .uncancellation, .billingIssue, .expiration, .refund,
             .refundReversed, .productChange, .revoke, .pause, .transfer, .consumablePurchase, .creditsUsed: true
        case .accountCreated, .accountDeleted, .paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchasePending,
             .purchaseSuccess, .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed,
             .notificationsDisabled, .notificationsEnabled: false
        }
    }

    /// The first required field missing from `d`, if any (CONTRACT.md §2's required fields).
    public func firstMissingField(in d: EventData) -> EventField? {
        switch self {
        case .purchase, .renewal:
            if d.product == nil { return .product }
            if d.transaction == nil { return .transaction }
            return d.expires == nil ? .expires : nil
        case .refund, .refundReversed: return d.transaction == nil ? .transaction : nil
        case .productChange: return d.product == nil ? .product : nil
        case .transfer: return d.to == nil ? .to : nil
        case .consumablePurchase:
            if d.product == nil { return .product }
            if d.transaction == nil { return .transaction }
            return d.quantity == nil ? .quantity : nil
        case .creditsUsed: return d.quantity == nil ? .quantity : nil
        case .paywallViewed, .paywallCtaTapped: return d.context == nil ? .context : nil
        case .notificationsDisabled, .notificationsEnabled: return d.category == nil ? .category : nil
        case .cancellation, .uncancellation, .billingIssue, .expiration, .revoke, .pause,
             .accountCreated, .accountDeleted, .purchaseStarted, .purchasePending, .purchaseSuccess,
             .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed: return nil
        }
    }

}

extension EventType: FrozenTag {
    static let cases = Array(allCases)
    static let tags = TagTable(cases.map(\.rawValue))
}
