/// The `data` fields of one event type: those it requires and those it may carry, in the order
/// the canonical encoder writes them (`EventField`). The decoder refuses a line without a
/// required field; a catalog field outside the table ("off-type", such as a `price` on a
/// `cancellation`) is checked as its field, kept in `EventData.Extra`, written back where the
/// encoder always wrote it, and ignored by the rules.
public struct FieldTable: Sendable {
    /// The bits (`EventField.bit`) of the required fields, and of all the type's fields: two
    /// words, so that the decoder's check copies nothing.
    public let requiredMask: UInt32
    public let mask: UInt32

    init(required: [EventField] = [], optional: [EventField] = []) {
        requiredMask = required.reduce(0) { $0 | $1.bit }
        mask = (required + optional).reduce(0) { $0 | $1.bit }
    }

    /// No fields.
    static let none = FieldTable()
    /// The required fields, in the catalog's order.
    public var required: [EventField] { EventField.cases.filter { requiredMask & $0.bit != 0 } }
    /// The optional fields, in the catalog's order.
    public var optional: [EventField] { EventField.cases.filter { mask & ~requiredMask & $0.bit != 0 } }
    /// All the fields, in the catalog's order.
    public var all: [EventField] { EventField.cases.filter { mask & $0.bit != 0 } }

    /// The first required field (in the catalog's order) not in `present`, if any.
    package func firstMissing(_ present: UInt32) -> EventField? {
        guard present & requiredMask != requiredMask else { return nil }
        return required.first { present & $0.bit == 0 }
    }
}

extension EventType {
    /// The data fields of this type (CONTRACT.md §2, and the fields the rules read beyond it:
    /// `transaction`, `originalTransaction` and `environment` route every store event to the
    /// production or sandbox subscription; a refund's and a product change's `reason`, which the
    /// store mappings write). The one table: the decoder's required check and the split of
    /// off-type fields use it, and each payload type (`Purchase`, …) holds exactly these fields.
    public var fields: FieldTable {
        switch self {
        case .purchase: Purchase.table
        case .renewal: Renewal.table
        case .cancellation, .expiration, .revoke: StoreNotice.table
        case .uncancellation: SubscriptionRef.table
        case .billingIssue: BillingIssue.table
        case .refund: Refund.table
        case .refundReversed: RefundReversed.table
        case .productChange: ProductChange.table
        case .pause: Pause.table
        case .transfer: Transfer.table
        case .consumablePurchase: ConsumablePurchase.table
        case .creditsUsed: CreditsUsed.table
        case .paywallViewed: PaywallViewed.table
        case .paywallCtaTapped: PaywallCtaTapped.table
        case .purchaseStarted, .purchasePending: ProductAttempt.table
        case .purchaseSuccess: PurchaseSuccess.table
        case .purchaseFailed: PurchaseFailed.table
        case .restoreSuccess: RestoreSuccess.table
        case .restoreFailed: RestoreFailed.table
        case .notificationsDisabled, .notificationsEnabled: NotificationSetting.table
        case .accountCreated, .accountDeleted, .restoreClicked: FieldTable.none
        }
    }

    /// Each type's `fields.mask`, by its place in `cases` (what the decoder's tag lookup gives).
    package static let fieldMasks: [UInt32] = cases.map { $0.fields.mask }

    /// The first required field missing from `d`, if any (CONTRACT.md §2's required fields).
    public func firstMissingField(in d: EventFields) -> EventField? {
        fields.firstMissing(d.presentMask)
    }
}
