import SubscriptionDomain
/// A realistic synthetic population, as events in arrival order: trials that convert or lapse,
/// cancellations, billing issues with and without recovery, refunds, credit packs, and the
/// delivery faults of real webhooks (late and duplicated deliveries). Same seed, same events.
public struct PopulationGenerator: Sendable {
    public var profile: Profile
    public var users: Int
    public var seed: UInt64
    /// The first user's first event; the others start within 60 days of it.
    public var start = Timestamp.parse("2026-01-05T09:00:00Z")!
    /// The number of billing periods a subscription may run.
    public var maxPeriods = 6
    /// Extra paywall views per user before the first purchase attempt (returning visitors), to
    /// make longer histories for benchmarks. 0 by default.
    public var extraPaywallViews = 0

    public init(profile: Profile, users: Int, seed: UInt64) {
        self.profile = profile
        self.users = users
        self.seed = seed
    }

    /// All users' events, user by user, in arrival order.
    public func events() -> [Event] {
        var out: [Event] = []
        out.reserveCapacity(users * 10)
        for u in 0..<users { out.append(contentsOf: events(forUser: u)) }
        return out
    }

    /// One user's events in arrival order (deterministic in seed and user index).
    public func events(forUser index: Int) -> [Event] {
        var rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        let user = "u_\(index)"
        var list: [Event] = []
        var t = start + .hours(Int.random(in: 0..<(60 * 24), using: &rng))
        var txn = 0
        func add(_ type: EventType, _ set: (inout EventFields) -> Void = { _ in }) {
            var d = EventFields()
            set(&d)
            list.append(Event(id: "\(user)_\(list.count)", type: type, user: user, time: t, source: type.isStoreEvent ? .store : .client, fields: d))
        }
        func later(minutes: ClosedRange<Int>) { t = t + .init(nanoseconds: Int64(Int.random(in: minutes, using: &rng)) * 60_000_000_000) }
        let subscription = profile.products.first { $0.kind == .autoRenewable }
        let consumables = profile.products.filter { $0.kind == .consumable }
        let context = ["onboarding", "locked_feature", "settings", "history"].randomElement(using: &rng)!

        add(.accountCreated)
        if Int.random(in: 0..<10, using: &rng) == 0 { later(minutes: 1...600); add(.notificationsDisabled) { $0.category = "billing" } }
        for _ in 0..<extraPaywallViews {
            later(minutes: 60...3000)
            add(.paywallViewed) { $0.context = "settings"; $0.sourceScreen = "settings"; $0.planState = "free" }
        }
        guard Double.random(in: 0..<1, using: &rng) < 0.8 else { return list }
        later(minutes: 1...2000)
        let trialEligible = profile.trialDays > 0
        add(.paywallViewed) { $0.context = context; $0.sourceScreen = "home"; $0.planState = "free"; $0.trialEligible = trialEligible }
        if !consumables.isEmpty, Int.random(in: 0..<4, using: &rng) == 0 {
            let pack = consumables.randomElement(using: &rng)!
            txn += 1
            later(minutes: 1...30)
            let id = "\(user)_t\(txn)"
            add(.consumablePurchase) { $0.product = pack.id; $0.transaction = id; $0.quantity = pack.credits; $0.price = Money.parse(pack.price); $0.currency = pack.currency }
            later(minutes: 60...5000)
            add(.creditsUsed) { $0.quantity = Int.random(in: 1...(min(max(pack.credits ?? 1, 1), 1_000_000) + 5), using: &rng) }
        }
        guard let subscription, Double.random(in: 0..<1, using: &rng) < 0.6 else { return list }
        later(minutes: 0...3)
        add(.paywallCtaTapped) { $0.context = context; $0.trialEligible = trialEligible }
        guard Double.random(in: 0..<1, using: &rng) < 0.85 else { return list }
        add(.purchaseStarted) { $0.product = subscription.id }
        guard Double.random(in: 0..<1, using: &rng) < 0.8 else {
            later(minutes: 0...2)
            add(.purchaseFailed) { $0.reason = ["cancelled", "declined", "network"].randomElement(using: &rng)! }
            return list
        }
        later(minutes: 0...2)
        let trial = trialEligible && Double.random(in: 0..<1, using: &rng) < 0.7
        txn += 1
        var current = "\(user)_t\(txn)"
        let original = current
        var expires = trial ? t + .days(profile.trialDays) : Timestamp.addMonths(subscription.periodMonths ?? 1, to: t)
        let firstExpires = expires
        add(.purchase) {
            $0.product = subscription.id; $0.transaction = original; $0.expires = firstExpires
            $0.offer = trial ? .freeTrial : nil; $0.price = trial ? Money.zero : Money.parse(subscription.price); $0.currency = subscription.currency
        }
        add(.purchaseSuccess) { $0.product = subscription.id; $0.trialUsed = trial }
        var periods = 0
        while periods < maxPeriods {
            periods += 1
            let roll = Double.random(in: 0..<1, using: &rng)
            if roll < 0.12 {
                // cancelled during the period: access until expires, then the store's expiration
                t = expires - .days(Int.random(in: 1...max(1, trial && periods == 1 ? 5 : 20), using: &rng))
                add(.cancellation) { $0.reason = "customer" }
                t = expires
                add(.expiration) { $0.reason = "voluntary" }
                break
            } else if roll < 0.20 {
                // payment fails at renewal; half recover within the grace period
                t = expires
                add(.billingIssue)
                if Bool.random(using: &rng) {
                    later(minutes: 60...(2 * 24 * 60))
                    txn += 1
                    current = "\(user)_t\(txn)"
                    expires = Timestamp.addMonths(subscription.periodMonths ?? 1, to: expires)
                    let (id, exp) = (current, expires)
                    add(.renewal) { $0.product = subscription.id; $0.transaction = id; $0.originalTransaction = original; $0.expires = exp; $0.price = Money.parse(subscription.price); $0.currency = subscription.currency }
                    continue
                }
                t = expires + .days(min(max(profile.billingGraceDays, 0), 3650) + 1)
                add(.expiration) { $0.reason = "billing_error" }
                break
            } else if roll < 0.23 {
                // refund of the current period
                t = expires - .days(2)
                let id = current
                add(.refund) { $0.transaction = id; $0.price = Money.parse(subscription.price); $0.currency = subscription.currency }
                break
            }
            t = expires
            txn += 1
            current = "\(user)_t\(txn)"
            expires = Timestamp.addMonths(subscription.periodMonths ?? 1, to: expires)
            let (id, exp) = (current, expires)
            add(.renewal) { $0.product = subscription.id; $0.transaction = id; $0.originalTransaction = original; $0.expires = exp; $0.price = Money.parse(subscription.price); $0.currency = subscription.currency }
        }
        // Delivery faults: a webhook retried (same id), a client sync of a store transaction
        // (same transaction, new id), and a late delivery (arrives after a later event).
        if list.count > 3, Int.random(in: 0..<20, using: &rng) == 0 {
            list.append(list[Int.random(in: 0..<list.count, using: &rng)])
        }
        if let i = list.indices.filter({ list[$0].type == .renewal }).randomElement(using: &rng), Int.random(in: 0..<15, using: &rng) == 0 {
            var copy = list[i]
            copy.id = "\(user)_client_\(i)"
            copy.source = .client
            copy.time = copy.time + .init(nanoseconds: 5_000_000_000)
            list.append(copy)
        }
        if list.count > 4, Int.random(in: 0..<10, using: &rng) == 0 {
            let i = Int.random(in: 1..<(list.count - 1), using: &rng)
            list.swapAt(i, i + 1)
        }
        return list
    }

}
