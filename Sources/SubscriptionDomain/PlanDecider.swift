/// The plan-state rules as a Decider: `initial`, `evolve(state, event)` that never throws and
/// handles every event type, and `view(state, at:)` that applies timers at a given instant.
/// Time only comes in as values; nothing here reads a clock.
public struct PlanDecider: Sendable {
    /// The profile and what the rules look up in it, shared: copying a decider is one retain.
    final class Rules: Sendable {
        let profile: Profile
        let groups: [String: String]
        let productIDs: [String: String]
        let listedPrices: [String: ListedPrice]
        init(_ profile: Profile) {
            self.profile = profile
            listedPrices = Dictionary(profile.products.compactMap { p in Money.parse(p.price).map { (p.id, ListedPrice(price: $0, currency: p.currency)) } },
                                      uniquingKeysWith: { a, _ in a })
            groups = Dictionary(profile.products.compactMap { p in p.group.map { (p.id, $0) } }, uniquingKeysWith: { a, _ in a })
            productIDs = Dictionary(profile.products.map { ($0.id, $0.id) }, uniquingKeysWith: { a, _ in a })
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

    /// The catalog price of a product, if the profile lists it (read without copying the profile).
    public func listedPrice(of product: String) -> ListedPrice? { rules.listedPrices[product] }
    /// How long before a trial ends its reminder fires.
    public var trialReminderLead: Timestamp.Duration { rules.profile.trialReminderLead }

    /// The subscription group of a product (the product id itself when the profile does not know it).
    func group(of product: String) -> String { rules.groups[product] ?? product }

    /// The profile's own copy of a product id, so that a million subscriptions share one string.
    func interned(_ product: String) -> String { rules.productIDs[product] ?? product }

    /// The state before any event.
    public func initial(user: String) -> SubscriberState { SubscriberState(user: user) }

    /// Folds one event (events must come in effect order: `time`, then log order).
    public func evolve(_ state: SubscriberState, _ event: Event) -> SubscriberState {
        var s = state
        evolve(&s, event)
        return s
    }

    /// The same fold in place, for replay loops that keep states in a table (no copy-on-write).
    public func evolve(_ s: inout SubscriberState, _ event: Event) {
        s.lastEventTime = event.time
        s.rule = apply(event, to: &s)
    }

    private func apply(_ e: Event, to s: inout SubscriberState) -> Rule {
        switch e.type {
        case .accountCreated:
            s.hasAccount = true
            return .accountCreated
        case .accountDeleted:
            s.hasAccount = false
            return .accountDeleted
        case .purchase:
            guard let txn = e.data.transaction, let product = e.data.product, let expires = e.data.expires else { return .noSubscription }
            if !e.data.extra.isEmpty, e.data.isTemporaryGrant { return temporaryGrant(e, txn: txn, product: product, expires: expires, &s) }
            guard s.see(txn) else { return .duplicateTransaction }
            let group = group(of: product)
            let isTrial = e.data.offer == .freeTrial
            let firstInGroup = !s.trialUsedGroups.contains(group)
            let env = e.data.environment ?? .production
            var sub = Subscription(
                product: interned(product), group: group, originalTransaction: e.data.originalTransaction ?? txn, transaction: txn,
                startedAt: e.time, expires: expires, isTrial: isTrial, environment: env,
                price: e.data.price, currency: e.data.currency)
            sub.familyShared = e.data.familyShared == true
            if env == .sandbox {
                s.sandbox = sub
                s.sandboxTransactions.append(txn)
                return .sandboxApart
            }
            s.everPurchased = true
            s.subscription = sub
            // A family member's access: the organizer subscribed, not this user (no start, trial kept).
            if sub.familyShared { return .familySharedAccess }
            s.markTrialUsed(group)
            if isTrial { return firstInGroup ? .purchaseStartsTrial : .trialOncePerGroup }
            return .purchaseStartsPro
        case .renewal:
            guard let txn = e.data.transaction, let product = e.data.product, let expires = e.data.expires else { return .noSubscription }
            guard s.see(txn) else { return .duplicateTransaction }
            // The closures below take what they need of the event, not the event (capturing it copied it).
            let (time, price, currency) = (e.time, e.data.price, e.data.currency)
            return withSubscription(e, &s, createIfMissing: true) { sub in
                let rule: Rule
                if sub.isTrial { rule = .trialConverted }
                else if sub.billingIssueAt != nil { rule = .billingRecovered }
                else if sub.endedAt != nil || time > sub.expires { rule = .lateRenewal }
                else { rule = .renewal }
                // A renewal of another product (a change at renewal) without a price of its own is
                // valued at that product's listed price, not the old period's.
                if product != sub.product { sub.price = nil; sub.currency = nil }
                sub.product = interned(product)
                sub.group = group(of: product)
                sub.transaction = txn
                sub.expires = max(expires, sub.expires)
                sub.isTrial = false
                sub.autoRenew = true
                sub.endedAt = nil
                sub.endedBy = nil
                sub.billingIssueAt = nil
                sub.graceEndsAt = nil
                sub.pausedAt = nil
                sub.resumesAt = nil
                sub.pendingProduct = nil
                sub.price = price ?? sub.price
                sub.currency = currency ?? sub.currency
                return rule
            }
        case .cancellation:
            return withSubscription(e, &s) { sub in
                sub.autoRenew = false
                return sub.isTrial ? .cancelDuringTrial : .cancelKeepsAccess
            }
        case .uncancellation:
            return withSubscription(e, &s) { sub in
                sub.autoRenew = true
                return .uncancel
            }
        case .billingIssue:
            let (time, graceExpires) = (e.time, e.data.graceExpires)
            return withSubscription(e, &s) { sub in
                guard sub.endedAt == nil else { return .noSubscription }
                if sub.billingIssueAt == nil { sub.billingIssueAt = time }
                sub.graceEndsAt = graceExpires ?? (time + rules.profile.billingGrace)
                return .billingGrace
            }
        case .pause:
            // Access runs to expires, then stops with no unverified grace (status); a renewal resumes it.
            let (time, resumesAt) = (e.time, e.data.resumesAt)
            return withSubscription(e, &s) { sub in
                guard sub.endedAt == nil else { return .noSubscription }
                if sub.pausedAt == nil { sub.pausedAt = time }
                sub.resumesAt = resumesAt ?? sub.resumesAt
                return .pause
            }
        case .expiration, .revoke, .transfer:
            // Access ends at the event: the store expired it, Family Sharing withdrew it, or it moved to another user.
            let rule: Rule = e.type == .expiration ? .expiration : e.type == .revoke ? .revoke : .transferOut
            let time = e.time
            return withSubscription(e, &s) { sub in
                end(&sub, at: time, by: rule)
                return rule
            }
        case .refund:
            guard let txn = e.data.transaction else { return .noSubscription }
            if let quantity = s.consumables.removeValue(forKey: txn) {
                s.credits = max(0, s.credits.subtractingSaturated(quantity))
                return .refundOlder
            }
            let time = e.time
            return withSubscription(e, &s) { sub in
                guard txn == sub.transaction else { return .refundOlder }
                end(&sub, at: time, by: .refundCurrent)
                sub.refundedTransaction = txn
                return .refundCurrent
            }
        case .refundReversed:
            guard let txn = e.data.transaction else { return .noSubscription }
            return withSubscription(e, &s) { sub in
                guard sub.refundedTransaction == txn, sub.endedBy == .refundCurrent else { return .refundOlder }
                sub.endedAt = nil
                sub.endedBy = nil
                sub.refundedTransaction = nil
                return .refundReversed
            }
        case .productChange:
            guard let product = e.data.product else { return .noSubscription }
            let (effective, expires) = (e.data.effective, e.data.expires)
            // An immediate change charged at once (an App Store upgrade) carries its transaction:
            // it becomes the current one (a refund of it ends access), reported once.
            let charged = effective == .nextRenewal ? nil : e.data.transaction
            if let charged { guard s.see(charged) else { return .duplicateTransaction } }
            let (price, currency) = (e.data.price, e.data.currency)
            return withSubscription(e, &s) { sub in
                if effective == .nextRenewal {
                    sub.pendingProduct = product
                    return .downgradeAtRenewal
                }
                // The reported price was the old product's: from now on the new product's listed
                // price applies (revenue's MRR), until a renewal reports one.
                if product != sub.product { sub.price = nil; sub.currency = nil }
                sub.product = interned(product)
                sub.group = group(of: product)
                if let expires { sub.expires = expires }
                sub.pendingProduct = nil
                if let charged {
                    sub.transaction = charged
                    sub.price = price ?? sub.price
                    sub.currency = currency ?? sub.currency
                }
                return .upgradeNow
            }
        case .consumablePurchase:
            guard let txn = e.data.transaction, let quantity = e.data.quantity else { return .noSubscription }
            guard s.see(txn) else { return .duplicateTransaction }
            if e.data.environment == .sandbox { return .sandboxApart }
            s.everPurchased = true
            s.credits = s.credits.addingSaturated(quantity)
            s.consumables[txn] = quantity
            return .creditsAdded
        case .creditsUsed:
            s.credits = max(0, s.credits.subtractingSaturated(e.data.quantity ?? 0))
            return .creditsUsed
        case .notificationsDisabled:
            if let c = e.data.category, !s.disabledCategories.contains(c) { s.disabledCategories.append(c) }
            return .notificationCategory
        case .notificationsEnabled:
            if let c = e.data.category { s.disabledCategories.removeAll { $0 == c } }
            return .notificationCategory
        case .paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchasePending, .purchaseSuccess,
             .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed:
            return .appEvent
        }
    }

    /// A temporary entitlement grant: access until its `expires` when no subscription is running
    /// (the confirmed purchase that follows replaces it); nothing when one is (the purchase it
    /// bridges came first in effect order). Its transaction is not marked seen, so that the
    /// confirmed purchase is never taken for a second report of it; it marks no trial used.
    private func temporaryGrant(_ e: Event, txn: String, product: String, expires: Timestamp, _ s: inout SubscriberState) -> Rule {
        if e.data.environment == .sandbox {
            if let running = s.sandbox, running.endedAt == nil, running.expires > e.time { return .sandboxApart }
        } else if let running = s.subscription, running.endedAt == nil, running.expires > e.time {
            return .temporaryGrant
        }
        let env = e.data.environment ?? .production
        let sub = Subscription(
            product: interned(product), group: group(of: product), originalTransaction: e.data.originalTransaction ?? txn, transaction: txn,
            startedAt: e.time, expires: expires, isTrial: false, environment: env, price: nil, currency: nil)
        if env == .sandbox {
            s.sandbox = sub
            return .sandboxApart
        }
        s.everPurchased = true
        s.subscription = sub
        return .temporaryGrant
    }

    /// Receives a subscription transferred from another user at `time` (TRANSFER-IN), unless the
    /// user already has a subscription running: then nothing changes. True if it was received.
    @discardableResult
    public func receiveTransfer(_ s: inout SubscriberState, _ subscription: Subscription, at time: Timestamp) -> Bool {
        if let own = s.subscription, own.endedAt == nil { return false }
        var sub = subscription
        sub.endedAt = nil
        sub.endedBy = nil
        s.subscription = sub
        s.everPurchased = true
        s.markTrialUsed(sub.group)
        _ = s.see(sub.transaction)
        _ = s.see(sub.originalTransaction)
        s.rule = .transferIn
        s.lastEventTime = max(s.lastEventTime ?? time, time)
        return true
    }

    private func end(_ sub: inout Subscription, at time: Timestamp, by rule: Rule) {
        guard sub.endedAt == nil else { return }
        sub.endedAt = time
        sub.endedBy = rule
        sub.billingIssueAt = nil
        sub.graceEndsAt = nil
    }

    /// Runs `change` on the subscription the event is about: sandbox if the event says so or names
    /// a sandbox transaction, else production. Without a subscription, nothing changes.
    private func withSubscription(_ e: Event, _ s: inout SubscriberState, createIfMissing: Bool = false,
                                  _ change: (inout Subscription) -> Rule) -> Rule {
        func namesSandbox(_ t: String?) -> Bool {
            guard let t else { return false }
            return s.sandboxTransactions.contains(t) || s.sandboxBox[0].originalTransaction == t
        }
        let sandbox = e.data.environment == .sandbox
            || (e.data.environment == nil && !s.sandboxBox.isEmpty
                && (s.subscriptionBox.isEmpty || namesSandbox(e.data.transaction) || namesSandbox(e.data.originalTransaction)))
        if sandbox {
            guard !s.sandboxBox.isEmpty else { return .sandboxApart }
            _ = change(&s.sandboxBox[0])
            if let t = e.data.transaction, e.type == .renewal { s.sandboxTransactions.append(t) }
            return .sandboxApart
        }
        if !s.subscriptionBox.isEmpty { return change(&s.subscriptionBox[0]) }
        guard createIfMissing, let product = e.data.product, let t = e.data.transaction, let expires = e.data.expires else { return .noSubscription }
        let group = group(of: product)
        s.subscription = Subscription(
            product: interned(product), group: group, originalTransaction: e.data.originalTransaction ?? t, transaction: t,
            startedAt: e.time, expires: expires, isTrial: false, environment: .production,
            price: e.data.price, currency: e.data.currency)
        s.everPurchased = true
        s.markTrialUsed(group)
        return .renewalWithoutPurchase
    }
}
