/// The plan-state rules as a Decider: `initial`, `evolve(state, event)` that never throws and
/// handles every event type (and the subscriptions other users transfer, `ReceivedTransfer`),
/// each transition carrying the rule that made it, and `view(state, at:)` that applies timers at a
/// given instant. Time only comes in as values; nothing here reads a clock.
public struct PlanDecider: Sendable {
    /// The profile and what the rules look up in it, shared: copying a decider is one retain.
    final class Rules: Sendable {
        let profile: Profile
        let groups: [String: String]
        /// Each product's id and `billingTerms` (its price parsed once), in catalog order: what
        /// `billingTerms(of:)` and `listedPrice(of:)` read.
        let billing: [(product: String, terms: BillingTerms)]
        init(_ profile: Profile) {
            self.profile = profile
            billing = profile.products.map { ($0.id, BillingTerms(periodMonths: $0.periodMonths, price: Money.parse($0.price), currency: $0.currency)) }
            groups = Dictionary(profile.products.compactMap { p in p.group.map { (p.id, $0) } }, uniquingKeysWith: { a, _ in a })
        }
    }
    let rules: Rules
    /// The app's catalog and rule parameters.
    public var profile: Profile { rules.profile }
    public init(profile: Profile) { rules = Rules(profile) }

    /// A product's catalog price and currency.
    public struct ListedPrice: Sendable {
        public var price: Money
        public var currency: String
    }

    /// The catalog price of a product, if the profile lists it with a price that parses (the
    /// first such entry; read without copying the profile: a catalog lists a few products).
    public func listedPrice(of product: String) -> ListedPrice? {
        for i in rules.billing.indices where rules.billing[i].product == product {
            if let price = rules.billing[i].terms.price { return ListedPrice(price: price, currency: rules.billing[i].terms.currency) }
        }
        return nil
    }
    /// How long before a trial ends its reminder fires.
    public var trialReminderLead: Timestamp.Duration { rules.profile.trialReminderLead }
    /// How long after a renewal was due its entitlement lasts without the store's word.
    public var unverifiedGrace: Timestamp.Duration { rules.profile.unverifiedGrace }
    /// The store's commission, in percent.
    public var commissionPercent: Int { rules.profile.commissionPercent }
    /// The catalog's product of `id` (the first listed), looked up without copying the profile
    /// (a catalog lists a few products: comparing ids costs less than hashing one).
    public func product(_ id: String) -> Profile.Product? { rules.profile.products.first { $0.id == id } }

    /// What a subscription's recurring revenue takes from the catalog's product: its billing
    /// period, its price and currency.
    public struct BillingTerms: Sendable {
        /// Months per billing period (nil: not a subscription).
        public let periodMonths: Int?
        /// The catalog price (nil when it does not parse as money).
        public let price: Money?
        public let currency: String
    }

    /// The billing terms of the catalog's product of `id` (the first listed, as `product(_:)`):
    /// what the walk asks at every instant of a paying user, so it is not the whole product copied.
    public func billingTerms(of id: String) -> BillingTerms? {
        for i in rules.billing.indices where rules.billing[i].product == id { return rules.billing[i].terms }
        return nil
    }

    /// The subscription group of a product (the product id itself when the profile does not know it).
    func group(of product: String) -> String { rules.groups[product] ?? product }

    /// The state before any event.
    public func initial(user: String) -> SubscriberState { SubscriberState(user: user) }

    /// Folds one event (events must come in effect order: `time`, then log order).
    public func evolve(_ state: SubscriberState, _ event: Event) -> SubscriberState {
        var s = state
        evolve(&s, event)
        return s
    }

    /// The same fold in place, for replay loops that keep states in a table (no copy-on-write);
    /// returns the transition with the rule that made it.
    @discardableResult
    public func evolve(_ s: inout SubscriberState, _ event: Event) -> PlanTransition {
        var sandboxRule: Rule?
        let rule = apply(event, to: &s, sandbox: &sandboxRule)
        record(rule, at: event.time, in: &s)
        return PlanTransition(rule: rule, sandboxRule: sandboxRule)
    }

    /// Folds a subscription another user transferred to this one (TRANSFER-IN). It is handed over
    /// after the user's own events, so the last event time only moves forward. When the user's own
    /// subscription is running, the state is returned as it was.
    public func evolve(_ state: SubscriberState, _ transfer: ReceivedTransfer) -> SubscriberState {
        var s = state
        evolve(&s, transfer)
        return s
    }

    /// The same in place; returns the transition, nil when the transfer changed nothing.
    @discardableResult
    public func evolve(_ s: inout SubscriberState, _ transfer: ReceivedTransfer) -> PlanTransition? {
        guard let rule = receive(transfer, into: &s) else { return nil }
        record(rule, at: max(s.lastEventTime ?? transfer.time, transfer.time), in: &s)
        return PlanTransition(rule: rule)
    }

    /// Receives a transferred subscription: `evolve` with a `ReceivedTransfer`, for callers that
    /// hold the subscription and its time apart; true if it was received.
    @discardableResult
    public func receiveTransfer(_ s: inout SubscriberState, _ subscription: Subscription, at time: Timestamp) -> Bool {
        evolve(&s, ReceivedTransfer(subscription: subscription, time: time)) != nil
    }

    /// What every transition leaves in the state: its rule and the time of what caused it.
    @inline(__always) private func record(_ rule: Rule, at time: Timestamp, in s: inout SubscriberState) {
        s.lastEventTime = time
        s.rule = rule
    }

    /// Applies one event and returns its rule; `sandboxRule` is set to the rule it followed on the
    /// sandbox subscription when it is kept apart there (the returned rule is then SANDBOX).
    private func apply(_ e: Event, to s: inout SubscriberState, sandbox sandboxRule: inout Rule?) -> Rule {
        let time = e.time
        switch e.data {
        case .accountCreated:
            s.hasAccount = true
            return .accountCreated
        case .accountDeleted:
            s.hasAccount = false
            return .accountDeleted
        case .purchase(let p):
            if p.temporaryGrant { return temporaryGrant(p, at: time, &s, sandbox: &sandboxRule) }
            guard s.see(p.transaction) else { return .duplicateTransaction }
            let group = group(of: p.product)
            let isTrial = p.offer == .freeTrial
            let firstInGroup = !s.trialUsedGroups.contains(group)
            let env = p.environment ?? .production
            var sub = Subscription(
                product: p.product, group: group, originalTransaction: p.originalTransaction ?? p.transaction, transaction: p.transaction,
                startedAt: time, expires: p.expires, isTrial: isTrial, environment: env, price: p.price, currency: p.currency)
            sub.familyShared = p.familyShared == true
            if env == .sandbox {
                s.sandbox = sub
                s.sandboxTransactions.append(p.transaction)
                sandboxRule = sub.familyShared ? .familySharedAccess : isTrial ? .purchaseStartsTrial : .purchaseStartsPro
                return .sandboxApart
            }
            s.everPurchased = true
            s.subscription = sub
            // A family member's access: the organizer subscribed, not this user (no start, trial kept).
            if sub.familyShared { return .familySharedAccess }
            s.markTrialUsed(group)
            if isTrial { return firstInGroup ? .purchaseStartsTrial : .trialOncePerGroup }
            return .purchaseStartsPro
        case .renewal(let r):
            guard s.see(r.transaction) else { return .duplicateTransaction }
            let ref = SubscriptionRef(transaction: r.transaction, originalTransaction: r.originalTransaction, environment: r.environment)
            switch route(ref, s) {
            case .sandbox(let i):
                s.sandboxTransactions.append(r.transaction)
                sandboxRule = renew(&s.subscriptions[i], r, at: time)
                return .sandboxApart
            case .production(let i): return renew(&s.subscriptions[i], r, at: time)
            case .none:
                let group = group(of: r.product)
                s.subscription = Subscription(
                    product: r.product, group: group, originalTransaction: r.originalTransaction ?? r.transaction, transaction: r.transaction,
                    startedAt: time, expires: r.expires, isTrial: false, environment: .production, price: r.price, currency: r.currency)
                s.everPurchased = true
                s.markTrialUsed(group)
                return .renewalWithoutPurchase
            case .sandboxMissing: return .sandboxApart
            }
        case .cancellation(let n):
            return change(route(n.ref, s), &s, &sandboxRule) { sub in
                // Auto-renew off since the first cancellation that turned it off (a repeat keeps it).
                if sub.autoRenew { sub.autoRenewOffAt = time }
                sub.autoRenew = false
                return sub.isTrial ? .cancelDuringTrial : .cancelKeepsAccess
            }
        case .uncancellation(let ref):
            return change(route(ref, s), &s, &sandboxRule) { sub in
                sub.autoRenew = true
                sub.autoRenewOffAt = nil
                return .uncancel
            }
        case .billingIssue(let b):
            let grace = b.graceExpires ?? (time + rules.profile.billingGrace)
            return change(route(b.ref, s), &s, &sandboxRule) { sub in
                guard sub.endedAt == nil else { return .noSubscription }
                if sub.billingIssueAt == nil { sub.billingIssueAt = time }
                sub.graceEndsAt = grace
                return .billingGrace
            }
        case .pause(let p):
            // Access runs to expires, then stops with no unverified grace (status); a renewal resumes it.
            let resumesAt = p.resumesAt
            return change(route(p.ref, s), &s, &sandboxRule) { sub in
                guard sub.endedAt == nil else { return .noSubscription }
                if sub.pausedAt == nil { sub.pausedAt = time }
                sub.resumesAt = resumesAt ?? sub.resumesAt
                return .pause
            }
        // Access ends at the event: the store expired it, Family Sharing withdrew it, or it moved to another user.
        case .expiration(let n): return end(route(n.ref, s), &s, &sandboxRule, at: time, by: .expiration)
        case .revoke(let n): return end(route(n.ref, s), &s, &sandboxRule, at: time, by: .revoke)
        case .transfer(let t): return end(route(t.ref, s), &s, &sandboxRule, at: time, by: .transferOut)
        case .refund(let r):
            let txn = r.transaction
            if let quantity = s.consumables.removeValue(forKey: txn) {
                s.credits = max(0, s.credits.subtractingSaturated(quantity))
                return .refundOlder
            }
            let ref = SubscriptionRef(transaction: txn, originalTransaction: r.originalTransaction, environment: r.environment)
            return change(route(ref, s), &s, &sandboxRule) { sub in
                guard txn == sub.transaction else { return .refundOlder }
                end(&sub, at: time, by: .refundCurrent)
                sub.refundedTransaction = txn
                return .refundCurrent
            }
        case .refundReversed(let r):
            let txn = r.transaction
            let ref = SubscriptionRef(transaction: txn, originalTransaction: r.originalTransaction, environment: r.environment)
            return change(route(ref, s), &s, &sandboxRule) { sub in
                guard sub.refundedTransaction == txn, sub.endedBy == .refundCurrent else { return .refundOlder }
                sub.endedAt = nil
                sub.endedBy = nil
                sub.refundedTransaction = nil
                return .refundReversed
            }
        case .productChange(let c):
            // An immediate change charged at once (an App Store upgrade) carries its transaction:
            // it becomes the current one (a refund of it ends access), reported once.
            let charged = c.effective == .nextRenewal ? nil : c.ref.transaction
            if let charged { guard s.see(charged) else { return .duplicateTransaction } }
            return change(route(c.ref, s), &s, &sandboxRule) { sub in changeProduct(&sub, c, charged: charged) }
        case .consumablePurchase(let c):
            guard s.see(c.transaction) else { return .duplicateTransaction }
            if c.environment == .sandbox { return .sandboxApart }
            s.everPurchased = true
            s.credits = s.credits.addingSaturated(c.quantity)
            s.consumables[c.transaction] = c.quantity
            return .creditsAdded
        case .creditsUsed(let c):
            s.credits = max(0, s.credits.subtractingSaturated(c.quantity))
            return .creditsUsed
        case .notificationsDisabled(let n):
            if !s.disabledCategories.contains(n.category) { s.disabledCategories.append(n.category) }
            return .notificationCategory
        case .notificationsEnabled(let n):
            s.disabledCategories.removeAll { $0 == n.category }
            return .notificationCategory
        case .paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchasePending, .purchaseSuccess,
             .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed:
            return .appEvent
        }
    }

    /// A renewal of the subscription: the rule it applies (a trial converted, a billing issue
    /// recovered, a late renewal) and the new period.
    private func renew(_ sub: inout Subscription, _ r: Renewal, at time: Timestamp) -> Rule {
        let rule: Rule
        if sub.isTrial { rule = .trialConverted }
        else if sub.billingIssueAt != nil { rule = .billingRecovered }
        else if sub.endedAt != nil || time > sub.expires { rule = .lateRenewal }
        else { rule = .renewal }
        // A renewal of another product (a change at renewal) without a price of its own is
        // valued at that product's listed price, not the old period's.
        if r.product != sub.product { sub.price = nil; sub.currency = nil }
        sub.product = r.product
        sub.group = group(of: r.product)
        sub.transaction = r.transaction
        sub.expires = max(r.expires, sub.expires)
        sub.isTrial = false
        // The store charged a period of it: a grant's access is a subscription from here.
        sub.temporaryGrant = false
        sub.autoRenew = true
        sub.autoRenewOffAt = nil
        sub.endedAt = nil
        sub.endedBy = nil
        sub.billingIssueAt = nil
        sub.graceEndsAt = nil
        sub.pausedAt = nil
        sub.resumesAt = nil
        sub.pendingProduct = nil
        sub.price = r.price ?? sub.price
        sub.currency = r.currency ?? sub.currency
        return rule
    }

    /// A product change now (an upgrade, charged when it carries its transaction) or at the next renewal.
    private func changeProduct(_ sub: inout Subscription, _ c: ProductChange, charged: String?) -> Rule {
        if c.effective == .nextRenewal {
            sub.pendingProduct = c.product
            return .downgradeAtRenewal
        }
        // The reported price was the old product's: from now on the new product's listed
        // price applies (revenue's MRR), until a renewal reports one.
        if c.product != sub.product { sub.price = nil; sub.currency = nil }
        sub.product = c.product
        sub.group = group(of: c.product)
        if let expires = c.expires { sub.expires = expires }
        sub.pendingProduct = nil
        if let charged {
            sub.transaction = charged
            // The store's own transaction: a grant's access is a subscription from here.
            sub.temporaryGrant = false
            sub.price = c.price ?? sub.price
            sub.currency = c.currency ?? sub.currency
        }
        return .upgradeNow
    }

    /// A temporary entitlement grant: access until its `expires` when no subscription is running
    /// (the confirmed purchase that follows replaces it); nothing when one is (the purchase it
    /// bridges came first in effect order). Its transaction is not marked seen, so that the
    /// confirmed purchase is never taken for a second report of it; it marks no trial used.
    private func temporaryGrant(_ p: Purchase, at time: Timestamp, _ s: inout SubscriberState, sandbox sandboxRule: inout Rule?) -> Rule {
        if p.environment == .sandbox {
            sandboxRule = .temporaryGrant
            if let running = s.sandbox, running.endedAt == nil, running.expires > time { return .sandboxApart }
        } else if let running = s.subscription, running.endedAt == nil, running.expires > time {
            return .temporaryGrant
        }
        let env = p.environment ?? .production
        var sub = Subscription(
            product: p.product, group: group(of: p.product), originalTransaction: p.originalTransaction ?? p.transaction,
            transaction: p.transaction, startedAt: time, expires: p.expires, isTrial: false, environment: env, price: nil, currency: nil)
        sub.temporaryGrant = true
        if env == .sandbox {
            s.sandbox = sub
            return .sandboxApart
        }
        s.everPurchased = true
        s.subscription = sub
        return .temporaryGrant
    }

    /// TRANSFER-IN: the transferred subscription becomes the user's, unless the user has one
    /// running (then nothing changes: nil).
    private func receive(_ transfer: ReceivedTransfer, into s: inout SubscriberState) -> Rule? {
        if let own = s.subscription, own.endedAt == nil { return nil }
        var sub = transfer.subscription
        sub.endedAt = nil
        sub.endedBy = nil
        s.subscription = sub
        s.everPurchased = true
        s.markTrialUsed(sub.group)
        _ = s.see(sub.transaction)
        _ = s.see(sub.originalTransaction)
        return .transferIn
    }

    private func end(_ sub: inout Subscription, at time: Timestamp, by rule: Rule) {
        guard sub.endedAt == nil else { return }
        sub.endedAt = time
        sub.endedBy = rule
        sub.billingIssueAt = nil
        sub.graceEndsAt = nil
    }

    /// Which subscription an event is about: its place in `subscriptions`.
    enum Route { case production(Int), sandbox(Int), none, sandboxMissing }

    /// The sandbox subscription if the event says so or names a sandbox transaction, else the
    /// production one; `none` when the user has no subscription there.
    private func route(_ ref: SubscriptionRef, _ s: SubscriberState) -> Route {
        let production = s.index(of: .production), sandbox = s.index(of: .sandbox)
        func namesSandbox(_ t: String?) -> Bool {
            guard let t, let sandbox else { return false }
            return s.sandboxTransactions.contains(t) || s.subscriptions[sandbox].originalTransaction == t
        }
        let toSandbox = ref.environment == .sandbox
            || (ref.environment == nil && sandbox != nil
                && (production == nil || namesSandbox(ref.transaction) || namesSandbox(ref.originalTransaction)))
        if toSandbox { return sandbox.map(Route.sandbox) ?? .sandboxMissing }
        return production.map(Route.production) ?? .none
    }

    /// Runs `change` on the routed subscription: its rule for production; for the sandbox, SANDBOX,
    /// with the rule the sandbox subscription followed in `sandboxRule`; without a subscription,
    /// nothing changes.
    private func change(_ route: Route, _ s: inout SubscriberState, _ sandboxRule: inout Rule?,
                        _ change: (inout Subscription) -> Rule) -> Rule {
        switch route {
        case .production(let i): return change(&s.subscriptions[i])
        case .sandbox(let i):
            sandboxRule = change(&s.subscriptions[i])
            return .sandboxApart
        case .sandboxMissing: return .sandboxApart
        case .none: return .noSubscription
        }
    }

    /// Ends the routed subscription's access at `time` by `rule`.
    private func end(_ route: Route, _ s: inout SubscriberState, _ sandboxRule: inout Rule?, at time: Timestamp, by rule: Rule) -> Rule {
        change(route, &s, &sandboxRule) { sub in
            end(&sub, at: time, by: rule)
            return rule
        }
    }
}
