/// The typed data of one event type (or of several with the same fields): exactly the fields of
/// its `table`, required ones non-optional. `init(taking:)` moves them out of the decoded slots
/// (nil when a required one is missing); `put(into:)` gives them back to the encoders.
protocol EventPayload: Sendable, Equatable {
    static var table: FieldTable { get }
    init?(taking f: inout EventFields)
    func put(into f: inout EventFields)
}

/// What routes a store event to the production or the sandbox subscription: the transaction it
/// names and its environment. Alone, the data of an `uncancellation`.
public struct SubscriptionRef: EventPayload {
    public var transaction: String?
    public var originalTransaction: String?
    public var environment: StoreEnvironment?

    public init(transaction: String? = nil, originalTransaction: String? = nil, environment: StoreEnvironment? = nil) {
        (self.transaction, self.originalTransaction, self.environment) = (transaction, originalTransaction, environment)
    }
    static let table = FieldTable(optional: fields)
    static let fields: [EventField] = [.transaction, .originalTransaction, .environment]
    init(taking f: inout EventFields) {
        (transaction, originalTransaction, environment) = (f.transaction.take(), f.originalTransaction.take(), f.environment.take())
    }
    func put(into f: inout EventFields) {
        (f.transaction, f.originalTransaction, f.environment) = (transaction, originalTransaction, environment)
    }
}

/// `purchase`: starts a subscription (a trial with `offer` free_trial; a family member's access
/// with `familyShared`).
public struct Purchase: EventPayload {
    public var product: String
    public var transaction: String
    public var expires: Timestamp
    public var originalTransaction: String?
    public var offer: Offer?
    public var price: Money?
    public var currency: String?
    public var environment: StoreEnvironment?
    public var familyShared: Bool?
    /// A temporary entitlement grant (`StoreField.temporaryGrant`): access while the store
    /// confirms the purchase, which follows as its own `purchase`. Read from the line's unknown
    /// fields, where it stays (so it is not set here).
    public private(set) var temporaryGrant: Bool
    /// The developer's take-home share in parts per million (`StoreField.takehomePercentage`), read the same way.
    public private(set) var takehomeShare: Int64?

    static let table = FieldTable(required: [.product, .transaction, .expires],
                                  optional: [.originalTransaction, .offer, .price, .currency, .environment, .familyShared])
    init?(taking f: inout EventFields) {
        guard let product = f.product.take(), let transaction = f.transaction.take(), let expires = f.expires.take() else { return nil }
        (self.product, self.transaction, self.expires) = (product, transaction, expires)
        (originalTransaction, offer, price, currency) = (f.originalTransaction.take(), f.offer.take(), f.price.take(), f.currency.take())
        (environment, familyShared) = (f.environment.take(), f.familyShared.take())
        temporaryGrant = StoreField.temporaryGrant.bool(in: f.extra) == true
        takehomeShare = StoreField.takehomePercentage.partsPerMillion(in: f.extra)
    }
    func put(into f: inout EventFields) {
        (f.product, f.transaction, f.expires) = (product, transaction, expires)
        (f.originalTransaction, f.offer, f.price, f.currency) = (originalTransaction, offer, price, currency)
        (f.environment, f.familyShared) = (environment, familyShared)
    }
}

/// `renewal`: extends the subscription to `expires`.
public struct Renewal: EventPayload {
    public var product: String
    public var transaction: String
    public var expires: Timestamp
    public var originalTransaction: String?
    public var price: Money?
    public var currency: String?
    public var environment: StoreEnvironment?
    public var familyShared: Bool?
    /// The developer's take-home share in parts per million (`StoreField.takehomePercentage`):
    /// read from the line's unknown fields, where it stays (so it is not set here).
    public private(set) var takehomeShare: Int64?

    static let table = FieldTable(required: [.product, .transaction, .expires],
                                  optional: [.originalTransaction, .price, .currency, .environment, .familyShared])
    init?(taking f: inout EventFields) {
        guard let product = f.product.take(), let transaction = f.transaction.take(), let expires = f.expires.take() else { return nil }
        (self.product, self.transaction, self.expires) = (product, transaction, expires)
        (originalTransaction, price, currency) = (f.originalTransaction.take(), f.price.take(), f.currency.take())
        (environment, familyShared) = (f.environment.take(), f.familyShared.take())
        takehomeShare = StoreField.takehomePercentage.partsPerMillion(in: f.extra)
    }
    func put(into f: inout EventFields) {
        (f.product, f.transaction, f.expires) = (product, transaction, expires)
        (f.originalTransaction, f.price, f.currency) = (originalTransaction, price, currency)
        (f.environment, f.familyShared) = (environment, familyShared)
    }
}

/// `cancellation`, `expiration`, `revoke`: a reason, and the subscription it is about.
public struct StoreNotice: EventPayload {
    public var reason: String?
    public var ref: SubscriptionRef

    static let table = FieldTable(optional: [.reason] + SubscriptionRef.fields)
    init(taking f: inout EventFields) {
        reason = f.reason.take()
        ref = SubscriptionRef(taking: &f)
    }
    func put(into f: inout EventFields) {
        f.reason = reason
        ref.put(into: &f)
    }
}

/// `billing_issue`: a failed payment, with the store's grace end if it says one.
public struct BillingIssue: EventPayload {
    public var graceExpires: Timestamp?
    public var ref: SubscriptionRef

    static let table = FieldTable(optional: [.graceExpires] + SubscriptionRef.fields)
    init(taking f: inout EventFields) {
        graceExpires = f.graceExpires.take()
        ref = SubscriptionRef(taking: &f)
    }
    func put(into f: inout EventFields) {
        f.graceExpires = graceExpires
        ref.put(into: &f)
    }
}

/// `pause`: the subscription is paused, to resume at `resumesAt` if the store says when.
public struct Pause: EventPayload {
    public var resumesAt: Timestamp?
    public var ref: SubscriptionRef

    static let table = FieldTable(optional: [.resumesAt] + SubscriptionRef.fields)
    init(taking f: inout EventFields) {
        resumesAt = f.resumesAt.take()
        ref = SubscriptionRef(taking: &f)
    }
    func put(into f: inout EventFields) {
        f.resumesAt = resumesAt
        ref.put(into: &f)
    }
}

/// `transfer`: the subscription moves to the user `to`.
public struct Transfer: EventPayload {
    public var to: String
    public var ref: SubscriptionRef

    static let table = FieldTable(required: [.to], optional: SubscriptionRef.fields)
    init?(taking f: inout EventFields) {
        guard let to = f.to.take() else { return nil }
        self.to = to
        ref = SubscriptionRef(taking: &f)
    }
    func put(into f: inout EventFields) {
        f.to = to
        ref.put(into: &f)
    }
}

/// `refund`: the refund of a transaction.
public struct Refund: EventPayload {
    public var transaction: String
    public var originalTransaction: String?
    public var price: Money?
    public var currency: String?
    public var reason: String?
    public var environment: StoreEnvironment?

    static let table = FieldTable(required: [.transaction], optional: [.originalTransaction, .price, .currency, .environment, .reason])
    init?(taking f: inout EventFields) {
        guard let transaction = f.transaction.take() else { return nil }
        self.transaction = transaction
        (originalTransaction, price, currency, reason, environment) =
            (f.originalTransaction.take(), f.price.take(), f.currency.take(), f.reason.take(), f.environment.take())
    }
    func put(into f: inout EventFields) {
        f.transaction = transaction
        (f.originalTransaction, f.price, f.currency, f.reason, f.environment) = (originalTransaction, price, currency, reason, environment)
    }
}

/// `refund_reversed`: undoes the refund of a transaction.
public struct RefundReversed: EventPayload {
    public var transaction: String
    public var originalTransaction: String?
    public var environment: StoreEnvironment?

    static let table = FieldTable(required: [.transaction], optional: [.originalTransaction, .environment])
    init?(taking f: inout EventFields) {
        guard let transaction = f.transaction.take() else { return nil }
        self.transaction = transaction
        (originalTransaction, environment) = (f.originalTransaction.take(), f.environment.take())
    }
    func put(into f: inout EventFields) {
        (f.transaction, f.originalTransaction, f.environment) = (transaction, originalTransaction, environment)
    }
}

/// `product_change`: an upgrade now (charged: with its transaction and price) or a change at the
/// next renewal.
public struct ProductChange: EventPayload {
    public var product: String
    public var expires: Timestamp?
    public var effective: ChangeTiming?
    public var price: Money?
    public var currency: String?
    public var reason: String?
    public var ref: SubscriptionRef

    static let table = FieldTable(required: [.product], optional: [.expires, .effective, .price, .currency, .reason] + SubscriptionRef.fields)
    init?(taking f: inout EventFields) {
        guard let product = f.product.take() else { return nil }
        self.product = product
        (expires, effective, price, currency, reason) = (f.expires.take(), f.effective.take(), f.price.take(), f.currency.take(), f.reason.take())
        ref = SubscriptionRef(taking: &f)
    }
    func put(into f: inout EventFields) {
        f.product = product
        (f.expires, f.effective, f.price, f.currency, f.reason) = (expires, effective, price, currency, reason)
        ref.put(into: &f)
    }
}

/// `consumable_purchase`: a pack of credits.
public struct ConsumablePurchase: EventPayload {
    public var product: String
    public var transaction: String
    public var quantity: Int
    public var price: Money?
    public var currency: String?
    public var environment: StoreEnvironment?
    /// The developer's take-home share in parts per million (`StoreField.takehomePercentage`):
    /// read from the line's unknown fields, where it stays (so it is not set here).
    public private(set) var takehomeShare: Int64?

    static let table = FieldTable(required: [.product, .transaction, .quantity], optional: [.price, .currency, .environment])
    init?(taking f: inout EventFields) {
        guard let product = f.product.take(), let transaction = f.transaction.take(), let quantity = f.quantity.take() else { return nil }
        (self.product, self.transaction, self.quantity) = (product, transaction, quantity)
        (price, currency, environment) = (f.price.take(), f.currency.take(), f.environment.take())
        takehomeShare = StoreField.takehomePercentage.partsPerMillion(in: f.extra)
    }
    func put(into f: inout EventFields) {
        (f.product, f.transaction, f.quantity) = (product, transaction, quantity)
        (f.price, f.currency, f.environment) = (price, currency, environment)
    }
}

/// `credits_used`: credits spent.
public struct CreditsUsed: EventPayload {
    public var quantity: Int
    public var environment: StoreEnvironment?

    static let table = FieldTable(required: [.quantity], optional: [.environment])
    init?(taking f: inout EventFields) {
        guard let quantity = f.quantity.take() else { return nil }
        self.quantity = quantity
        environment = f.environment.take()
    }
    func put(into f: inout EventFields) { (f.quantity, f.environment) = (quantity, environment) }
}
