import Projections
import SubscriptionDomain

// The binary form of a user's fold in the kept projection (ProjectionStore), written once as a walk
// over its fields (`FieldCoder`): `ProjectionWriter` writes them, `ProjectionReader` reads them in
// the same order. A change of the walk is a change of the stored format; the rules fingerprint
// hashes the corpus folds' stored bytes, so it changes with it and projections stored in the old
// form are not read (ProjectionStore.codeVersion is for the file).

extension UserFold {
    /// The fold's stored fields, in their order.
    static func code<C: FieldCoder>(_ f: inout UserFold, _ c: inout C) throws(C.Failure) {
        try SubscriberState.code(&f.state, &c)
        for m in Metric.all {
            var n = f.counts[m]
            try c.code(count: &n)
            f.counts[m] = n
        }
        try c.code(&f.funnel.reached)
        try c.code(&f.funnel.byContext, blank: FunnelProgress.ContextProgress(context: "", reached: 0)) { (c, p) throws(C.Failure) in
            try c.code(shared: &p.context); try c.code(&p.reached)
        }
        try c.code(&f.funnel.current, blank: 0) { (c, n) throws(C.Failure) in try c.code(&n) }
        let zero = Timestamp(nanoseconds: 0)
        try c.code(&f.notifications, blank: NotificationEntry(kind: .trialEnding, fireAt: zero, key: "", inAppOnly: false, scheduledAt: zero)) {
            (c, n) throws(C.Failure) in
            try c.code(tag: &n.kind); try c.code(&n.fireAt); try c.code(&n.key); try c.code(&n.inAppOnly); try c.code(&n.scheduledAt)
            try c.code(&n.cancelledAt, blank: zero) { (c, t) throws(C.Failure) in try c.code(&t) }
            try c.code(&n.channelSwitches, blank: zero) { (c, t) throws(C.Failure) in try c.code(&t) }
        }
        try code(&f.books.gross, &c)
        try code(&f.books.refunded, &c)
        try c.code(&f.books.charges, blank: UserBooks.Charge(transaction: "", price: .zero, currency: "", takehome: nil)) { (c, x) throws(C.Failure) in
            try c.code(&x.transaction); try c.code(&x.price); try c.code(shared: &x.currency)
            try c.code(&x.takehome, blank: 0) { (c, t) throws(C.Failure) in try c.code(&t) }
        }
        try code(&f.books.takehomeAdjustment, &c)
        try c.code(&f.trialStartedAt, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&f.trialConverted)
        try c.code(&f.outOfOrder)
        try c.code(&f.transferOut, blank: Transfer(to: "", time: Timestamp(nanoseconds: 0), subscription: .blank)) { (c, t) throws(C.Failure) in
            try c.code(&t.to); try c.code(&t.time); try Subscription.code(&t.subscription, &c)
        }
    }

    /// Amounts per currency.
    private static func code<C: FieldCoder>(_ amounts: inout [UserBooks.Amount], _ c: inout C) throws(C.Failure) {
        try c.code(&amounts, blank: UserBooks.Amount(currency: "", money: .zero)) { (c, a) throws(C.Failure) in
            try c.code(shared: &a.currency); try c.code(&a.money)
        }
    }
}

extension SubscriberState {
    /// The state's stored fields, in their order.
    static func code<C: FieldCoder>(_ s: inout SubscriberState, _ c: inout C) throws(C.Failure) {
        try c.code(&s.user)
        try c.code(&s.hasAccount)
        try c.code(&s.everPurchased)
        try c.code(&s.subscription, blank: .blank) { (c, sub) throws(C.Failure) in try Subscription.code(&sub, &c) }
        try c.code(&s.sandbox, blank: .blank) { (c, sub) throws(C.Failure) in try Subscription.code(&sub, &c) }
        try c.code(&s.sandboxTransactions, blank: "") { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.trialUsedGroups, blank: "") { (c, t) throws(C.Failure) in try c.code(shared: &t) }
        try c.code(&s.seenTransactions, blank: "") { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.disabledCategories, blank: "") { (c, t) throws(C.Failure) in try c.code(shared: &t) }
        try c.code(&s.credits)
        // By key, so that the same state is always the same bytes.
        var consumables = s.consumables.sorted { $0.key < $1.key }.map { Consumable(product: $0.key, count: $0.value) }
        try c.code(&consumables, blank: Consumable(product: "", count: 0)) { (c, x) throws(C.Failure) in
            try c.code(&x.product); try c.code(&x.count)
        }
        s.consumables = Dictionary(consumables.lazy.map { ($0.product, $0.count) }, uniquingKeysWith: { _, last in last })
        try c.code(tag: &s.rule)
        try c.code(&s.lastEventTime, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
    }

    private struct Consumable { var product: String; var count: Int }
}

extension Subscription {
    /// What a stored subscription is read into before its fields are.
    static let blank = Subscription(product: "", group: "", originalTransaction: "", transaction: "",
                                    startedAt: Timestamp(nanoseconds: 0), expires: Timestamp(nanoseconds: 0), isTrial: false, environment: .production)

    /// The subscription's stored fields, in their order.
    static func code<C: FieldCoder>(_ s: inout Subscription, _ c: inout C) throws(C.Failure) {
        try c.code(shared: &s.product)
        try c.code(shared: &s.group)
        try c.code(&s.originalTransaction)
        try c.code(&s.transaction)
        try c.code(&s.startedAt)
        try c.code(&s.expires)
        try c.code(&s.autoRenew)
        try c.code(&s.isTrial)
        try c.code(&s.endedAt, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.endedBy, blank: Rule.purchaseStartsPro) { (c, r) throws(C.Failure) in try c.code(tag: &r) }
        try c.code(&s.refundedTransaction, blank: "") { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.billingIssueAt, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.graceEndsAt, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.pendingProduct, blank: "") { (c, p) throws(C.Failure) in try c.code(shared: &p) }
        try c.code(tag: &s.environment)
        try c.code(&s.price, blank: .zero) { (c, m) throws(C.Failure) in try c.code(&m) }
        try c.code(&s.currency, blank: "") { (c, x) throws(C.Failure) in try c.code(shared: &x) }
        try c.code(&s.pausedAt, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.resumesAt, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.familyShared)
        try c.code(&s.autoRenewOffAt, blank: Timestamp(nanoseconds: 0)) { (c, t) throws(C.Failure) in try c.code(&t) }
        try c.code(&s.temporaryGrant)
    }
}

extension ProjectionWriter {
    mutating func fold(_ f: UserFold) {
        var f = f
        // The writer's `Failure` has no value: there is nothing this could catch.
        do { try UserFold.code(&f, &self) } catch _ {}
    }
}

extension ProjectionReader {
    mutating func fold() throws -> UserFold {
        var f = UserFold(user: "")
        try UserFold.code(&f, &self)
        return f
    }
}
