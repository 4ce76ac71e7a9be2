/// The `data` fields of a line by name, before they are typed: what the decoder fills (`type`
/// may come after `data`), what builders (store mappings, generators, tests) set, and what the
/// encoders write. `EventData` takes from it the fields of one type (`EventData.init(type:taking:)`).
public struct EventFields: Sendable, Equatable {
    public var product: String?
    public var transaction: String?
    public var originalTransaction: String?
    public var expires: Timestamp?
    public var offer: Offer?
    public var price: Money?
    public var currency: String?
    public var environment: StoreEnvironment?
    public var familyShared: Bool?
    public var reason: String?
    public var graceExpires: Timestamp?
    public var resumesAt: Timestamp?
    public var effective: ChangeTiming?
    public var to: String?
    public var quantity: Int?
    public var context: String?
    public var sourceScreen: String?
    public var planState: String?
    public var trialEligible: Bool?
    public var trialUsed: Bool?
    public var plan: String?
    public var errorCode: String?
    public var category: String?
    /// Unknown fields: name and raw JSON value, in their order.
    public var extra: [EventData.ExtraField] = []

    public init() {}

    /// A field by name (nil when absent). Setting a value of another kind than the field's clears it.
    public subscript(field: EventField) -> FieldValue? {
        get {
            switch field {
            case .product: product.map(FieldValue.string)
            case .transaction: transaction.map(FieldValue.string)
            case .originalTransaction: originalTransaction.map(FieldValue.string)
            case .expires: expires.map(FieldValue.time)
            case .offer: offer.map(FieldValue.offer)
            case .price: price.map(FieldValue.money)
            case .currency: currency.map(FieldValue.string)
            case .environment: environment.map(FieldValue.environment)
            case .familyShared: familyShared.map(FieldValue.bool)
            case .reason: reason.map(FieldValue.string)
            case .graceExpires: graceExpires.map(FieldValue.time)
            case .resumesAt: resumesAt.map(FieldValue.time)
            case .effective: effective.map(FieldValue.timing)
            case .to: to.map(FieldValue.string)
            case .quantity: quantity.map(FieldValue.int)
            case .context: context.map(FieldValue.string)
            case .sourceScreen: sourceScreen.map(FieldValue.string)
            case .planState: planState.map(FieldValue.string)
            case .trialEligible: trialEligible.map(FieldValue.bool)
            case .trialUsed: trialUsed.map(FieldValue.bool)
            case .plan: plan.map(FieldValue.string)
            case .errorCode: errorCode.map(FieldValue.string)
            case .category: category.map(FieldValue.string)
            }
        }
        set {
            switch field {
            case .product: product = newValue?.string
            case .transaction: transaction = newValue?.string
            case .originalTransaction: originalTransaction = newValue?.string
            case .expires: expires = newValue?.time
            case .offer: offer = newValue?.offer
            case .price: price = newValue?.money
            case .currency: currency = newValue?.string
            case .environment: environment = newValue?.environment
            case .familyShared: familyShared = newValue?.bool
            case .reason: reason = newValue?.string
            case .graceExpires: graceExpires = newValue?.time
            case .resumesAt: resumesAt = newValue?.time
            case .effective: effective = newValue?.timing
            case .to: to = newValue?.string
            case .quantity: quantity = newValue?.int
            case .context: context = newValue?.string
            case .sourceScreen: sourceScreen = newValue?.string
            case .planState: planState = newValue?.string
            case .trialEligible: trialEligible = newValue?.bool
            case .trialUsed: trialUsed = newValue?.bool
            case .plan: plan = newValue?.string
            case .errorCode: errorCode = newValue?.string
            case .category: category = newValue?.string
            }
        }
    }

    /// Whether `field` is present, without building its value.
    public func contains(_ field: EventField) -> Bool {
        switch field {
        case .product: product != nil
        case .transaction: transaction != nil
        case .originalTransaction: originalTransaction != nil
        case .expires: expires != nil
        case .offer: offer != nil
        case .price: price != nil
        case .currency: currency != nil
        case .environment: environment != nil
        case .familyShared: familyShared != nil
        case .reason: reason != nil
        case .graceExpires: graceExpires != nil
        case .resumesAt: resumesAt != nil
        case .effective: effective != nil
        case .to: to != nil
        case .quantity: quantity != nil
        case .context: context != nil
        case .sourceScreen: sourceScreen != nil
        case .planState: planState != nil
        case .trialEligible: trialEligible != nil
        case .trialUsed: trialUsed != nil
        case .plan: plan != nil
        case .errorCode: errorCode != nil
        case .category: category != nil
        }
    }

    /// Sets a string field (identifier, name, text, code, currency kinds) without wrapping it in a
    /// `FieldValue`: the decoders' path, kept as a switch of its own for speed (through the
    /// subscript, decoding ran measurably slower), and inlinable into the codec's module. Other
    /// fields are left as they are.
    @inlinable @inline(__always) public mutating func set(_ field: EventField, string v: String) {
        switch field {
        case .product: product = v
        case .transaction: transaction = v
        case .originalTransaction: originalTransaction = v
        case .currency: currency = v
        case .reason: reason = v
        case .to: to = v
        case .context: context = v
        case .sourceScreen: sourceScreen = v
        case .planState: planState = v
        case .plan: plan = v
        case .errorCode: errorCode = v
        case .category: category = v
        case .expires, .offer, .price, .environment, .familyShared, .graceExpires, .resumesAt, .effective, .quantity,
             .trialEligible, .trialUsed: break
        }
    }

    /// Sets a time field the same way.
    @inlinable @inline(__always) public mutating func set(_ field: EventField, time t: Timestamp) {
        switch field {
        case .expires: expires = t
        case .graceExpires: graceExpires = t
        case .resumesAt: resumesAt = t
        case .product, .transaction, .originalTransaction, .offer, .price, .currency, .environment, .familyShared,
             .reason, .effective, .to, .quantity, .context, .sourceScreen, .planState, .trialEligible, .trialUsed,
             .plan, .errorCode, .category: break
        }
    }

    /// The bits (`EventField.bit`) of the fields present.
    var presentMask: UInt32 {
        var mask: UInt32 = 0
        for (i, f) in EventField.cases.enumerated() where self[f] != nil { mask |= 1 << UInt32(i) }
        return mask
    }
}
