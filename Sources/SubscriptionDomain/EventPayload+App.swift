// The typed data of the account and app events (CONTRACT.md §2's second table).

/// `paywall_viewed`.
public struct PaywallViewed: EventPayload {
    public var context: String
    public var sourceScreen: String?
    public var planState: String?
    public var trialEligible: Bool?

    static let table = FieldTable(required: [.context], optional: [.sourceScreen, .planState, .trialEligible])
    init?(taking f: inout EventFields) {
        guard let context = f.context.take() else { return nil }
        self.context = context
        (sourceScreen, planState, trialEligible) = (f.sourceScreen.take(), f.planState.take(), f.trialEligible.take())
    }
    func put(into f: inout EventFields) {
        (f.context, f.sourceScreen, f.planState, f.trialEligible) = (context, sourceScreen, planState, trialEligible)
    }
}

/// `paywall_cta_tapped`.
public struct PaywallCtaTapped: EventPayload {
    public var context: String
    public var trialEligible: Bool?

    static let table = FieldTable(required: [.context], optional: [.trialEligible])
    init?(taking f: inout EventFields) {
        guard let context = f.context.take() else { return nil }
        self.context = context
        trialEligible = f.trialEligible.take()
    }
    func put(into f: inout EventFields) { (f.context, f.trialEligible) = (context, trialEligible) }
}

/// `purchase_started`, `purchase_pending`.
public struct ProductAttempt: EventPayload {
    public var product: String?

    static let table = FieldTable(optional: [.product])
    init(taking f: inout EventFields) { product = f.product.take() }
    func put(into f: inout EventFields) { f.product = product }
}

/// `purchase_success`.
public struct PurchaseSuccess: EventPayload {
    public var product: String?
    public var trialUsed: Bool?

    static let table = FieldTable(optional: [.product, .trialUsed])
    init(taking f: inout EventFields) { (product, trialUsed) = (f.product.take(), f.trialUsed.take()) }
    func put(into f: inout EventFields) { (f.product, f.trialUsed) = (product, trialUsed) }
}

/// `purchase_failed`.
public struct PurchaseFailed: EventPayload {
    public var reason: String?

    static let table = FieldTable(optional: [.reason])
    init(taking f: inout EventFields) { reason = f.reason.take() }
    func put(into f: inout EventFields) { f.reason = reason }
}

/// `restore_success`.
public struct RestoreSuccess: EventPayload {
    public var plan: String?

    static let table = FieldTable(optional: [.plan])
    init(taking f: inout EventFields) { plan = f.plan.take() }
    func put(into f: inout EventFields) { f.plan = plan }
}

/// `restore_failed`.
public struct RestoreFailed: EventPayload {
    public var errorCode: String?

    static let table = FieldTable(optional: [.errorCode])
    init(taking f: inout EventFields) { errorCode = f.errorCode.take() }
    func put(into f: inout EventFields) { f.errorCode = errorCode }
}

/// `notifications_disabled`, `notifications_enabled`: a category of notifications turned off or on.
public struct NotificationSetting: EventPayload {
    public var category: String

    static let table = FieldTable(required: [.category])
    init?(taking f: inout EventFields) {
        guard let category = f.category.take() else { return nil }
        self.category = category
    }
    func put(into f: inout EventFields) { f.category = category }
}
