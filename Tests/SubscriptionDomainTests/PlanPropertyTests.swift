import Testing
import TestKit
@testable import SubscriptionDomain

/// Properties over generated histories (bounded: a few thousand cases).
@Suite struct PlanProperties {
    /// A random but plausible history for one user, in log order, reaching every event type (the
    /// store's in production and in the sandbox, and the account and app events). Times are on a
    /// 12-hour grid and one event in three comes at the same time as the one before, so equal
    /// times are common, and expiries and grace ends often fall exactly on an event.
    static func history(_ rng: inout SplitMix64) -> [Event] {
        var events: [Event] = []
        var t = at("2026-01-01T00:00:00Z").nanoseconds
        var txn = 0
        func step() -> Timestamp {
            if events.isEmpty || Int.random(in: 0..<3, using: &rng) != 0 { t += Int64.random(in: 1...12, using: &rng) * 12 * 3_600_000_000_000 }
            return Timestamp(nanoseconds: t)
        }
        func add(_ type: EventType, _ set: (inout EventFields) -> Void = { _ in }) {
            var d = EventFields()
            set(&d)
            events.append(Event(id: "e\(events.count)", type: type, user: "u1", time: step(), fields: d))
        }
        /// A store event's environment: mostly none (production), sometimes the sandbox.
        func environment() -> StoreEnvironment? {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: .sandbox
            case 1: .production
            default: nil
            }
        }
        /// A transaction already reported, or t0, which none is.
        func earlier() -> String { "t\(Int.random(in: 0...txn, using: &rng))" }
        let products = ["howru_premium_monthly", "howru_family_monthly"]
        for _ in 0..<Int.random(in: 1...14, using: &rng) {
            let env = environment()
            switch Int.random(in: 0..<20, using: &rng) {
            case 0: add(.accountCreated)
            case 1, 2:
                txn += 1
                let start = t
                add(.purchase) { $0.product = products.randomElement(using: &rng)!; $0.transaction = "t\(txn)"
                    $0.expires = Timestamp(nanoseconds: start + 7 * 86_400_000_000_000); $0.offer = Bool.random(using: &rng) ? .freeTrial : nil
                    $0.environment = env }
            case 3, 4:
                txn += 1
                let start = t
                add(.renewal) { $0.product = products.randomElement(using: &rng)!; $0.transaction = "t\(txn)"
                    $0.expires = Timestamp(nanoseconds: start + 30 * 86_400_000_000_000); $0.environment = env }
            case 5: add(.cancellation) { $0.environment = env }
            case 6: add(.uncancellation) { $0.environment = env }
            case 7: add(.billingIssue) { $0.environment = env }
            case 8: add(.expiration) { $0.environment = env }
            case 9: add(.refund) { $0.transaction = earlier(); $0.environment = env }
            case 10: add(.refundReversed) { $0.transaction = earlier(); $0.environment = env }
            case 11: add(.productChange) { $0.product = products.randomElement(using: &rng)!; $0.effective = Bool.random(using: &rng) ? .nextRenewal : nil
                $0.environment = env }
            case 12: add(.revoke) { $0.environment = env }
            case 13:
                let resumes = t + Int64.random(in: 1...60, using: &rng) * 86_400_000_000_000
                add(.pause) { $0.resumesAt = Bool.random(using: &rng) ? Timestamp(nanoseconds: resumes) : nil; $0.environment = env }
            case 14: add(.transfer) { $0.to = "u2"; $0.environment = env }
            case 15: txn += 1; add(.consumablePurchase) { $0.product = "howru_sms_20"; $0.transaction = "t\(txn)"; $0.quantity = 20; $0.environment = env }
            case 16: add(.creditsUsed) { $0.quantity = Int.random(in: 1...30, using: &rng); $0.environment = env }
            case 17: add(Bool.random(using: &rng) ? .notificationsDisabled : .notificationsEnabled) { $0.category = "billing" }
            default:
                let app: [EventType] = [.accountDeleted, .paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchasePending,
                                        .purchaseSuccess, .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed]
                add(app.randomElement(using: &rng)!) { $0.context = "settings" }
            }
        }
        return events
    }

    static let decider = PlanDecider(profile: .howru)

    static func views(_ events: [Event], at instants: [Timestamp]) -> [PlanView] {
        let timeline = UserTimeline(events.enumerated().map { StoredEvent(event: $1, position: UInt64($0 + 1), recorded: $1.time) })
        return instants.map { timeline.view(decider, user: "u1", at: $0) }
    }

    static func instants(_ events: [Event]) -> [Timestamp] {
        events.flatMap { [$0.time, $0.time + .hours(12), $0.time + .days(3), $0.time + .days(40)] }
    }

    /// `events` in a random arrival order in which events with equal times keep their order.
    static func shuffledKeepingTies(_ events: [Event], _ rng: inout SplitMix64) -> [Event] {
        var arrival = events.shuffled(using: &rng)
        // Refill the places each time's events landed in with those events in their first order.
        var byTime = Dictionary(grouping: events, by: \.time)
        for i in arrival.indices { arrival[i] = byTime[arrival[i].time]!.removeFirst() }
        return arrival
    }

    /// The plan as of `instant` by the tie rule itself (CONTRACT §3): the arrival folded in time
    /// order, equal times in arrival order.
    static func tieRuleView(_ arrival: [Event], at instant: Timestamp) -> PlanView {
        var s = decider.initial(user: "u1")
        for i in arrival.indices.sorted(by: { (arrival[$0].time, $0) < (arrival[$1].time, $1) }) where arrival[i].time <= instant {
            s = decider.evolve(s, arrival[i])
        }
        return decider.view(s, at: instant)
    }

    @Test func theGeneratedHistoriesReachEveryEventTypeInProductionAndInTheSandbox() {
        var rng = SplitMix64(seed: 4)
        let events = (0..<1000).flatMap { _ in Self.history(&rng) }
        let types = Set(events.map(\.type))
        #expect(EventType.allCases.filter { !types.contains($0) } == [])
        let sandbox = Set(events.filter { $0.allFields.environment == .sandbox }.map(\.type))
        #expect(EventType.allCases.filter { $0.isStoreEvent && !sandbox.contains($0) } == [])
    }

    @Test func theGeneratedHistoriesHaveEqualTimesOften() {
        var rng = SplitMix64(seed: 4)
        let histories = (0..<1000).map { _ in Self.history(&rng) }
        let withTies = histories.filter { Set($0.map(\.time)).count < $0.count }.count
        #expect(withTies > 500, "\(withTies) of 1000 histories have two events at one time")
    }

    @Test func shufflingTheArrivalOrderOfEventsAtDistinctTimesDoesNotChangeTheStateAtAnyInstant() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<1000 {
            let events = Self.history(&rng)
            let instants = Self.instants(events)
            #expect(Self.views(Self.shuffledKeepingTies(events, &rng), at: instants) == Self.views(events, at: instants))
        }
    }

    @Test func eventsAtEqualTimesTakeEffectInLogOrder() {
        var rng = SplitMix64(seed: 5)
        var orderMattered = 0
        for _ in 0..<1000 {
            let events = Self.history(&rng)
            let instants = Self.instants(events)
            let arrival = events.shuffled(using: &rng)
            let got = Self.views(arrival, at: instants)
            #expect(got == instants.map { Self.tieRuleView(arrival, at: $0) })
            if got != Self.views(events, at: instants) { orderMattered += 1 }
        }
        // Only equal times can make two arrival orders differ: the property says something only if they often do.
        #expect(orderMattered > 250, "the log order of equal times changed the state in \(orderMattered) of 1000 histories")
    }

    @Test func appendingACopyOfAnyEventDoesNotChangeIt() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<1000 {
            let events = Self.history(&rng)
            let instants = Self.instants(events)
            let copy = events.randomElement(using: &rng)!
            var sameTransaction = copy
            sameTransaction.id += "-resent"
            let expected = Self.views(events, at: instants)
            #expect(Self.views(events + [copy], at: instants) == expected)
            if copy.allFields.transaction != nil && [.purchase, .renewal, .consumablePurchase, .refund].contains(copy.type) {
                #expect(Self.views(events + [sameTransaction], at: instants).map(\.planState) == expected.map(\.planState))
            }
        }
    }

    @Test func theStateAsOfAnInstantDoesNotDependOnLaterEvents() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<1000 {
            let events = Self.history(&rng)
            let cut = events.randomElement(using: &rng)!.time
            let instants = Self.instants(events).filter { $0 <= cut }
            #expect(Self.views(events.filter { $0.time <= cut }, at: instants) == Self.views(events, at: instants))
        }
    }
}
