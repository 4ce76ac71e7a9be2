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
             .refundReversed, .productChange, .revoke, .transfer, .consumablePurchase, .creditsUsed: true
        default: false
        }
    }

    /// The app event types counted one by one in analytics (`paywall_viewed` … `restore_failed`).
    public static let countedAppEvents: [EventType] = [
        .paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchasePending, .purchaseSuccess,
        .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed,
    ]

    /// The `data` fields this type requires.
    public var requiredFields: [EventField] {
        switch self {
        case .purchase, .renewal: [.product, .transaction, .expires]
        case .refund, .refundReversed: [.transaction]
        case .productChange: [.product]
        case .transfer: [.to]
        case .consumablePurchase: [.product, .transaction, .quantity]
        case .creditsUsed: [.quantity]
        case .paywallViewed, .paywallCtaTapped: [.context]
        case .notificationsDisabled, .notificationsEnabled: [.category]
        default: []
        }
    }

    /// Looks a type up by its frozen tag in raw bytes.
    static func from(_ b: UnsafeRawBufferPointer) -> EventType? {
        table.index(of: b).map { allCasesArray[$0] }
    }
    private static let allCasesArray = Array(allCases)
    private static let table = TagTable(allCases.map(\.rawValue))
}
