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
}

extension EventType {
    package static let cases = Array(allCases)
}
