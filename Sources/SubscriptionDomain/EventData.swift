/// An event's type with exactly its `data` fields, typed (`EventType.fields` lists them; the
/// contract's fields, CONTRACT.md §2, and those the rules read beyond it). Switch over it
/// exhaustively: a new type makes the compiler name every place that must decide about it.
public enum EventData: Sendable, Equatable {
    case purchase(Purchase)
    case renewal(Renewal)
    case cancellation(StoreNotice)
    case uncancellation(SubscriptionRef)
    case billingIssue(BillingIssue)
    case expiration(StoreNotice)
    case refund(Refund)
    case refundReversed(RefundReversed)
    case productChange(ProductChange)
    case revoke(StoreNotice)
    case pause(Pause)
    case transfer(Transfer)
    case consumablePurchase(ConsumablePurchase)
    case creditsUsed(CreditsUsed)
    case accountCreated
    case accountDeleted
    case paywallViewed(PaywallViewed)
    case paywallCtaTapped(PaywallCtaTapped)
    case purchaseStarted(ProductAttempt)
    case purchasePending(ProductAttempt)
    case purchaseSuccess(PurchaseSuccess)
    case purchaseFailed(PurchaseFailed)
    case restoreClicked
    case restoreSuccess(RestoreSuccess)
    case restoreFailed(RestoreFailed)
    case notificationsDisabled(NotificationSetting)
    case notificationsEnabled(NotificationSetting)

    /// The event type.
    @inlinable public var type: EventType {
        switch self {
        case .purchase: .purchase
        case .renewal: .renewal
        case .cancellation: .cancellation
        case .uncancellation: .uncancellation
        case .billingIssue: .billingIssue
        case .expiration: .expiration
        case .refund: .refund
        case .refundReversed: .refundReversed
        case .productChange: .productChange
        case .revoke: .revoke
        case .pause: .pause
        case .transfer: .transfer
        case .consumablePurchase: .consumablePurchase
        case .creditsUsed: .creditsUsed
        case .accountCreated: .accountCreated
        case .accountDeleted: .accountDeleted
        case .paywallViewed: .paywallViewed
        case .paywallCtaTapped: .paywallCtaTapped
        case .purchaseStarted: .purchaseStarted
        case .purchasePending: .purchasePending
        case .purchaseSuccess: .purchaseSuccess
        case .purchaseFailed: .purchaseFailed
        case .restoreClicked: .restoreClicked
        case .restoreSuccess: .restoreSuccess
        case .restoreFailed: .restoreFailed
        case .notificationsDisabled: .notificationsDisabled
        case .notificationsEnabled: .notificationsEnabled
        }
    }

    /// Takes the fields of `type` out of `f` (what is left there is off-type); nil when a
    /// required one is missing.
    public init?(type: EventType, taking f: inout EventFields) {
        let data: EventData?
        switch type {
        case .purchase: data = Purchase(taking: &f).map(EventData.purchase)
        case .renewal: data = Renewal(taking: &f).map(EventData.renewal)
        case .cancellation: data = .cancellation(StoreNotice(taking: &f))
        case .uncancellation: data = .uncancellation(SubscriptionRef(taking: &f))
        case .billingIssue: data = .billingIssue(BillingIssue(taking: &f))
        case .expiration: data = .expiration(StoreNotice(taking: &f))
        case .refund: data = Refund(taking: &f).map(EventData.refund)
        case .refundReversed: data = RefundReversed(taking: &f).map(EventData.refundReversed)
        case .productChange: data = ProductChange(taking: &f).map(EventData.productChange)
        case .revoke: data = .revoke(StoreNotice(taking: &f))
        case .pause: data = .pause(Pause(taking: &f))
        case .transfer: data = Transfer(taking: &f).map(EventData.transfer)
        case .consumablePurchase: data = ConsumablePurchase(taking: &f).map(EventData.consumablePurchase)
        case .creditsUsed: data = CreditsUsed(taking: &f).map(EventData.creditsUsed)
        case .accountCreated: data = .accountCreated
        case .accountDeleted: data = .accountDeleted
        case .paywallViewed: data = PaywallViewed(taking: &f).map(EventData.paywallViewed)
        case .paywallCtaTapped: data = PaywallCtaTapped(taking: &f).map(EventData.paywallCtaTapped)
        case .purchaseStarted: data = .purchaseStarted(ProductAttempt(taking: &f))
        case .purchasePending: data = .purchasePending(ProductAttempt(taking: &f))
        case .purchaseSuccess: data = .purchaseSuccess(PurchaseSuccess(taking: &f))
        case .purchaseFailed: data = .purchaseFailed(PurchaseFailed(taking: &f))
        case .restoreClicked: data = .restoreClicked
        case .restoreSuccess: data = .restoreSuccess(RestoreSuccess(taking: &f))
        case .restoreFailed: data = .restoreFailed(RestoreFailed(taking: &f))
        case .notificationsDisabled: data = NotificationSetting(taking: &f).map(EventData.notificationsDisabled)
        case .notificationsEnabled: data = NotificationSetting(taking: &f).map(EventData.notificationsEnabled)
        }
        guard let data else { return nil }
        self = data
    }

    /// Sets the type's fields in `f`, for the encoders.
    public func put(into f: inout EventFields) {
        switch self {
        case .purchase(let d): d.put(into: &f)
        case .renewal(let d): d.put(into: &f)
        case .cancellation(let d), .expiration(let d), .revoke(let d): d.put(into: &f)
        case .uncancellation(let d): d.put(into: &f)
        case .billingIssue(let d): d.put(into: &f)
        case .refund(let d): d.put(into: &f)
        case .refundReversed(let d): d.put(into: &f)
        case .productChange(let d): d.put(into: &f)
        case .pause(let d): d.put(into: &f)
        case .transfer(let d): d.put(into: &f)
        case .consumablePurchase(let d): d.put(into: &f)
        case .creditsUsed(let d): d.put(into: &f)
        case .paywallViewed(let d): d.put(into: &f)
        case .paywallCtaTapped(let d): d.put(into: &f)
        case .purchaseStarted(let d), .purchasePending(let d): d.put(into: &f)
        case .purchaseSuccess(let d): d.put(into: &f)
        case .purchaseFailed(let d): d.put(into: &f)
        case .restoreSuccess(let d): d.put(into: &f)
        case .restoreFailed(let d): d.put(into: &f)
        case .notificationsDisabled(let d), .notificationsEnabled(let d): d.put(into: &f)
        case .accountCreated, .accountDeleted, .restoreClicked: break
        }
    }

    /// The transaction and environment a store event names, which route it to the production or
    /// the sandbox subscription (all nil for app events).
    public var subscriptionRef: SubscriptionRef {
        switch self {
        case .purchase(let d): SubscriptionRef(transaction: d.transaction, originalTransaction: d.originalTransaction, environment: d.environment)
        case .renewal(let d): SubscriptionRef(transaction: d.transaction, originalTransaction: d.originalTransaction, environment: d.environment)
        case .cancellation(let d), .expiration(let d), .revoke(let d): d.ref
        case .uncancellation(let d): d
        case .billingIssue(let d): d.ref
        case .refund(let d): SubscriptionRef(transaction: d.transaction, originalTransaction: d.originalTransaction, environment: d.environment)
        case .refundReversed(let d): SubscriptionRef(transaction: d.transaction, originalTransaction: d.originalTransaction, environment: d.environment)
        case .productChange(let d): d.ref
        case .pause(let d): d.ref
        case .transfer(let d): d.ref
        case .consumablePurchase(let d): SubscriptionRef(transaction: d.transaction, environment: d.environment)
        case .creditsUsed(let d): SubscriptionRef(environment: d.environment)
        case .accountCreated, .accountDeleted, .paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchasePending,
             .purchaseSuccess, .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed,
             .notificationsDisabled, .notificationsEnabled: SubscriptionRef()
        }
    }
}
