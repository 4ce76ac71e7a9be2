import SubscriptionDomain

/// One user folded for the `subscriptions` and `users` tables: the plan state through the
/// ledger's own `PlanDecider`, and the subscription periods its purchases, renewals and charged
/// upgrades opened, each closed when the rules end its access.
struct PeriodFold {
    var state: SubscriberState
    var periods: [SubscriptionPeriod] = []
    /// The period each environment's subscription is in now (production, sandbox).
    private var openProduction: Int?
    private var openSandbox: Int?
    /// An event came with a time before one already folded: the user must be folded again in effect order.
    var outOfOrder = false
    /// The subscription this user transferred away, for its recipient (as `Replay` hands it over).
    var transferOut: TransferOut? {
        get { transferBox.first }
        set { transferBox = newValue.map { [$0] } ?? [] }
    }
    /// Boxed: most users transfer nothing, and a fold is one of many held at once.
    private var transferBox: [TransferOut] = []

    /// A subscription handed to another user.
    struct TransferOut {
        var to: String
        var time: Timestamp
        var subscription: Subscription
    }

    init(user: String) { state = SubscriberState(user: user) }

    /// Folds one event (in effect order) and records the periods it opens, refunds or restores.
    mutating func apply(_ e: Event, _ decider: PlanDecider) {
        if let last = state.lastEventTime, e.time < last { outOfOrder = true }
        let before = state.subscriptions
        decider.evolve(&state, e)
        let rule = state.rule
        guard rule != .duplicateTransaction else { return }
        switch e.data {
        case .purchase(let p):
            let environment = p.environment ?? .production
            guard let sub = subscription(environment), sub.transaction == p.transaction, sub.startedAt == e.time else { return }
            let temporary = p.temporaryGrant
            let booked = p.offer == .freeTrial || p.familyShared == true || temporary ? nil : Self.booked(p.product, p.price, p.currency, decider)
            open(environment, at: e.time, before: before, decider, SubscriptionPeriod(
                user: state.user, product: p.product, transaction: p.transaction, originalTransaction: sub.originalTransaction,
                start: e.time, expires: p.expires, effectiveEnd: nil, isTrial: sub.isTrial, offer: p.offer,
                price: booked?.price, currency: booked?.currency ?? p.currency, refundedAt: nil, familyShared: sub.familyShared,
                sandbox: environment == .sandbox, renewalNumber: temporary ? nil : 1, temporaryGrant: temporary))
        case .renewal(let r):
            guard let environment = environment(holding: r.transaction) else { return }
            let sub = subscription(environment)!
            let previous = openPeriod(environment).map { periods[$0] }
            let chained = previous.flatMap { $0.originalTransaction == sub.originalTransaction ? $0.renewalNumber : nil }
            let member = sub.familyShared || r.familyShared == true
            let booked = member ? nil : Self.booked(r.product, r.price, r.currency, decider)
            open(environment, at: e.time, before: before, decider, SubscriptionPeriod(
                user: state.user, product: r.product, transaction: r.transaction, originalTransaction: sub.originalTransaction,
                start: e.time, expires: r.expires, effectiveEnd: nil, isTrial: false, offer: nil,
                price: booked?.price, currency: booked?.currency ?? r.currency, refundedAt: nil, familyShared: member,
                sandbox: environment == .sandbox, renewalNumber: rule == .renewalWithoutPurchase ? nil : chained.map { $0 + 1 }))
        case .productChange(let c):
            // An upgrade charged at once carries its transaction: a new period from the change.
            guard c.effective != .nextRenewal, let charged = c.ref.transaction, let environment = environment(holding: charged) else { return }
            let sub = subscription(environment)!
            let previous = openPeriod(environment).map { periods[$0] }
            let chained = previous.flatMap { $0.originalTransaction == sub.originalTransaction ? $0.renewalNumber : nil }
            let price = rule == .upgradeNow ? c.price.flatMap { $0 > .zero ? $0 : nil } : nil
            open(environment, at: e.time, before: before, decider, SubscriptionPeriod(
                user: state.user, product: c.product, transaction: charged, originalTransaction: sub.originalTransaction,
                start: e.time, expires: sub.expires, effectiveEnd: nil, isTrial: sub.isTrial, offer: nil,
                price: price, currency: price == nil ? c.currency : (c.currency ?? "USD"), refundedAt: nil,
                familyShared: sub.familyShared, sandbox: environment == .sandbox, renewalNumber: chained.map { $0 + 1 }))
        case .refund(let r):
            if let i = periods.lastIndex(where: { $0.transaction == r.transaction }), periods[i].refundedAt == nil { periods[i].refundedAt = e.time }
        case .refundReversed(let r):
            if let i = periods.lastIndex(where: { $0.transaction == r.transaction && $0.refundedAt != nil }) { periods[i].refundedAt = nil }
        case .transfer(let t):
            if rule == .transferOut, var given = state.subscription {
                given.endedAt = nil
                given.endedBy = nil
                transferOut = TransferOut(to: t.to, time: e.time, subscription: given)
            }
        case .cancellation, .uncancellation, .billingIssue, .expiration, .revoke, .pause, .consumablePurchase, .creditsUsed,
             .accountCreated, .accountDeleted, .paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchasePending,
             .purchaseSuccess, .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed,
             .notificationsDisabled, .notificationsEnabled:
            return
        }
    }

    /// Hands over a subscription another user transferred here, as the ledger's replay does
    /// after the user's own events: received (true) only when no subscription of theirs is running.
    mutating func receive(_ t: TransferOut, _ decider: PlanDecider) -> Bool {
        let before = state.subscriptions
        guard decider.receiveTransfer(&state, t.subscription, at: t.time) else { return false }
        let sub = t.subscription
        open(.production, at: t.time, before: before, decider, SubscriptionPeriod(
            user: state.user, product: sub.product, transaction: sub.transaction, originalTransaction: sub.originalTransaction,
            start: t.time, expires: sub.expires, effectiveEnd: nil, isTrial: sub.isTrial, offer: nil, price: nil, currency: nil,
            refundedAt: nil, familyShared: sub.familyShared, sandbox: false, renewalNumber: nil, temporaryGrant: sub.temporaryGrant))
        return true
    }

    /// The periods as of `instant`: each running one closed if the rules ended its access by then.
    func finishedPeriods(at instant: Timestamp, _ decider: PlanDecider) -> [SubscriptionPeriod] {
        var out = periods
        for environment in [StoreEnvironment.production, .sandbox] {
            guard let i = openPeriod(environment), let sub = subscription(environment) else { continue }
            out[i].effectiveEnd = Self.accessEnd(sub, at: instant, decider)
        }
        return out
    }

    /// When access through `sub` ended, if it had by `instant` (nil: it still gives access),
    /// by the same tests as `PlanDecider.status`: an ending event, a billing grace run out, an
    /// expiry (a cancelled or paused subscription, a temporary grant), or the unverified grace after it.
    static func accessEnd(_ sub: Subscription, at instant: Timestamp, _ decider: PlanDecider) -> Timestamp? {
        var probe = SubscriberState(user: "")
        probe.subscription = sub
        guard !decider.status(probe, at: instant).hasAccess else { return nil }
        if let ended = sub.endedAt, ended <= instant { return ended }
        if let issue = sub.billingIssueAt, issue <= instant, let ends = sub.graceEndsAt { return ends }
        return decider.unverifiedGraceEnd(of: sub) ?? sub.expires
    }

    /// What the ledger's books take for a sale: the reported price, else the catalog's listed
    /// one; nil when that is nothing above zero.
    static func booked(_ product: String, _ reported: Money?, _ reportedCurrency: String?, _ decider: PlanDecider) -> (price: Money, currency: String)? {
        let listed = reported == nil || reportedCurrency == nil ? decider.listedPrice(of: product) : nil
        guard let price = reported ?? listed?.price, price > .zero else { return nil }
        return (price, reportedCurrency ?? listed?.currency ?? "USD")
    }

    /// Starts `period` as the one `environment`'s subscription is in, closing the one it replaces
    /// at `time` (or when that one's access had already ended, judged from the subscription `before` the event).
    private mutating func open(_ environment: StoreEnvironment, at time: Timestamp, before: [Subscription], _ decider: PlanDecider,
                               _ period: SubscriptionPeriod) {
        if let i = openPeriod(environment) {
            let old = before.first { $0.environment == environment }
            periods[i].effectiveEnd = old.flatMap { Self.accessEnd($0, at: time, decider) } ?? time
        }
        periods.append(period)
        if environment == .production { openProduction = periods.count - 1 } else { openSandbox = periods.count - 1 }
    }

    private func openPeriod(_ environment: StoreEnvironment) -> Int? { environment == .production ? openProduction : openSandbox }

    private func subscription(_ environment: StoreEnvironment) -> Subscription? {
        environment == .production ? state.subscription : state.sandbox
    }

    /// The environment whose subscription's current transaction is `transaction` after an event.
    private func environment(holding transaction: String) -> StoreEnvironment? {
        if state.subscription?.transaction == transaction { return .production }
        if state.sandbox?.transaction == transaction { return .sandbox }
        return nil
    }
}
