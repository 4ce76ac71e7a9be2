import Projections
import SubscriptionDomain

// The binary form of a user's fold in the kept projection (ProjectionStore). Writer and reader sit
// side by side and take the fields in the same order. A change of either is a change of the stored
// format; the rules fingerprint hashes the corpus folds' stored bytes, so it changes with it and
// projections stored in the old form are not read (ProjectionStore.codeVersion is for the file).

extension ProjectionWriter {
    mutating func fold(_ f: UserFold) {
        state(f.state)
        for m in Metric.all { varint(UInt64(f.counts[m])) }
        byte(f.funnel.reached)
        array(f.funnel.byContext) { w, c in w.string(c.context); w.byte(c.reached) }
        optional(f.funnel.current) { w, c in w.int(c) }
        array(f.notifications) { w, n in
            w.string(n.kind.rawValue); w.time(n.fireAt); w.string(n.key); w.bool(n.inAppOnly); w.bool(n.cancelled)
        }
        for amounts in [f.books.gross, f.books.refunded] { array(amounts) { w, a in w.string(a.currency); w.money(a.money) } }
        array(f.books.charges) { w, c in w.string(c.transaction); w.money(c.price); w.string(c.currency); w.optional(c.takehome) { w, t in w.int64(t) } }
        array(f.books.takehomeAdjustment) { w, a in w.string(a.currency); w.money(a.money) }
        optional(f.trialStartedAt) { w, t in w.time(t) }
        bool(f.trialConverted)
        bool(f.outOfOrder)
        optional(f.transferOut) { w, t in w.string(t.to); w.time(t.time); w.subscription(t.subscription) }
    }

    mutating func state(_ s: SubscriberState) {
        string(s.user)
        bool(s.hasAccount)
        bool(s.everPurchased)
        optional(s.subscription) { w, sub in w.subscription(sub) }
        optional(s.sandbox) { w, sub in w.subscription(sub) }
        for strings in [s.sandboxTransactions, s.trialUsedGroups, s.seenTransactions, s.disabledCategories] {
            array(strings) { w, t in w.string(t) }
        }
        int(s.credits)
        array(s.consumables.sorted { $0.key < $1.key }) { w, c in w.string(c.key); w.int(c.value) }
        string(s.rule.rawValue)
        optional(s.lastEventTime) { w, t in w.time(t) }
    }

    mutating func subscription(_ s: Subscription) {
        for text in [s.product, s.group, s.originalTransaction, s.transaction] { string(text) }
        time(s.startedAt)
        time(s.expires)
        bool(s.autoRenew)
        bool(s.isTrial)
        optional(s.endedAt) { w, t in w.time(t) }
        optional(s.endedBy) { w, r in w.string(r.rawValue) }
        optional(s.refundedTransaction) { w, t in w.string(t) }
        optional(s.billingIssueAt) { w, t in w.time(t) }
        optional(s.graceEndsAt) { w, t in w.time(t) }
        optional(s.pendingProduct) { w, p in w.string(p) }
        string(s.environment.rawValue)
        optional(s.price) { w, m in w.money(m) }
        optional(s.currency) { w, c in w.string(c) }
        optional(s.pausedAt) { w, t in w.time(t) }
        optional(s.resumesAt) { w, t in w.time(t) }
        bool(s.familyShared)
        optional(s.autoRenewOffAt) { w, t in w.time(t) }
    }
}

extension ProjectionReader {
    mutating func fold() throws -> UserFold {
        var f = UserFold(user: "")
        f.state = try state()
        for m in Metric.all {
            let n = try varint()
            guard n <= UInt64(UInt32.max) else { throw unreadable("count \(n) is not plausible") }
            f.counts[m] = UInt32(n)
        }
        f.funnel.reached = try byte()
        f.funnel.byContext = try array { r in FunnelProgress.ContextProgress(context: try r.sharedString(), reached: try r.byte()) }
        f.funnel.current = try optional { r in try r.int() }
        f.notifications = try array { r in
            NotificationEntry(kind: try r.tag(ScheduledNotification.Kind.self), fireAt: try r.time(), key: try r.string(),
                              inAppOnly: try r.bool(), cancelled: try r.bool())
        }
        f.books.gross = try array { r in UserBooks.Amount(currency: try r.sharedString(), money: try r.money()) }
        f.books.refunded = try array { r in UserBooks.Amount(currency: try r.sharedString(), money: try r.money()) }
        f.books.charges = try array { r in
            UserBooks.Charge(transaction: try r.string(), price: try r.money(), currency: try r.sharedString(), takehome: try r.optional { r in try r.int64() })
        }
        f.books.takehomeAdjustment = try array { r in UserBooks.Amount(currency: try r.sharedString(), money: try r.money()) }
        f.trialStartedAt = try optional { r in try r.time() }
        f.trialConverted = try bool()
        f.outOfOrder = try bool()
        f.transferOut = try optional { r in UserFold.Transfer(to: try r.string(), time: try r.time(), subscription: try r.subscription()) }
        return f
    }

    mutating func state() throws -> SubscriberState {
        var s = SubscriberState(user: try string())
        s.hasAccount = try bool()
        s.everPurchased = try bool()
        s.subscription = try optional { r in try r.subscription() }
        s.sandbox = try optional { r in try r.subscription() }
        s.sandboxTransactions = try array { r in try r.string() }
        s.trialUsedGroups = try array { r in try r.sharedString() }
        s.seenTransactions = try array { r in try r.string() }
        s.disabledCategories = try array { r in try r.sharedString() }
        s.credits = try int()
        let consumables = try array { r in (try r.string(), try r.int()) }
        s.consumables = Dictionary(consumables, uniquingKeysWith: { _, last in last })
        s.rule = try tag(Rule.self)
        s.lastEventTime = try optional { r in try r.time() }
        return s
    }

    mutating func subscription() throws -> Subscription {
        var s = Subscription(product: try sharedString(), group: try sharedString(), originalTransaction: try string(), transaction: try string(),
                             startedAt: try time(), expires: try time(), isTrial: false, environment: .production)
        s.autoRenew = try bool()
        s.isTrial = try bool()
        s.endedAt = try optional { r in try r.time() }
        s.endedBy = try optional { r in try r.tag(Rule.self) }
        s.refundedTransaction = try optional { r in try r.string() }
        s.billingIssueAt = try optional { r in try r.time() }
        s.graceEndsAt = try optional { r in try r.time() }
        s.pendingProduct = try optional { r in try r.sharedString() }
        s.environment = try tag(StoreEnvironment.self)
        s.price = try optional { r in try r.money() }
        s.currency = try optional { r in try r.sharedString() }
        s.pausedAt = try optional { r in try r.time() }
        s.resumesAt = try optional { r in try r.time() }
        s.familyShared = try bool()
        s.autoRenewOffAt = try optional { r in try r.time() }
        return s
    }
}
