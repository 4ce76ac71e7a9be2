import SubscriptionDomain

/// How far one user got through the paywall funnel, overall and per paywall `context`.
package struct FunnelProgress: Sendable, Equatable {
    package static let steps: [EventType] = [.paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchaseSuccess]
    /// The index of `type` in `steps` (a switch: this runs for every event of a replay).
    static func step(of type: EventType) -> Int? {
        switch type {
        case .paywallViewed: 0
        case .paywallCtaTapped: 1
        case .purchaseStarted: 2
        case .purchaseSuccess: 3
        case .purchase, .renewal, .cancellation, .uncancellation, .billingIssue, .expiration, .refund, .refundReversed,
             .productChange, .revoke, .pause, .transfer, .consumablePurchase, .creditsUsed,
             .accountCreated, .accountDeleted, .purchasePending, .purchaseFailed, .restoreClicked, .restoreSuccess,
             .restoreFailed, .notificationsDisabled, .notificationsEnabled: nil
        }
    }
    /// Steps reached overall (0…4).
    package var reached: UInt8 = 0
    /// Steps reached per context (the context of the paywall view that started the attempt); a user has few.
    package var byContext: [ContextProgress] = []
    package var current: Int?

    package struct ContextProgress: Sendable, Equatable {
        package var context: String
        package var reached: UInt8

        package init(context: String, reached: UInt8) {
            self.context = context
            self.reached = reached
        }
    }

    /// Per step count (1…4, at those places), the users `reached` counts there less the contexts
    /// `byContext` counts there: what the time index keeps of the overall funnel beyond the sum of
    /// its contexts (`TimeKey.Kind.windowFunnel`), mostly nothing (one context, as far as overall).
    static func beyondContexts(_ reached: UInt8, _ byContext: [ContextProgress]) -> InlineArray<5, Int64> {
        var out = InlineArray<5, Int64>(repeating: 0)
        if reached > 0 { out[Int(reached)] += 1 }
        for p in byContext where p.reached > 0 { out[Int(p.reached)] -= 1 }
        return out
    }

    /// Each step counts only after the one before it.
    mutating func record(_ e: Event) {
        guard let step = Self.step(of: e.type) else { return }
        var viewContext: String?
        if case .paywallViewed(let v) = e.data { viewContext = v.context } else if case .paywallCtaTapped(let t) = e.data { viewContext = t.context }
        record(step: step, viewContext: viewContext)
    }

    /// Records `events[k]`, read in place (an array's element handed to `record(_:)` was a copy of
    /// the whole event).
    mutating func record(_ events: [Event], _ k: Int) {
        guard let step = Self.step(of: events[k].type) else { return }
        var viewContext: String?
        switch events[k].data {
        case .paywallViewed(let v): viewContext = v.context
        case .paywallCtaTapped(let t): viewContext = t.context
        default: break
        }
        record(step: step, viewContext: viewContext)
    }

    private mutating func record(step: Int, viewContext: String?) {
        if step == 0 || viewContext != nil {
            let context = viewContext ?? "unknown"
            if let i = byContext.firstIndex(where: { $0.context == context }) { current = i } else {
                byContext.append(ContextProgress(context: context, reached: 0))
                current = byContext.count - 1
            }
        }
        if step == Int(reached) { reached += 1 }
        if let c = current, Int(byContext[c].reached) == step { byContext[c].reached += 1 }
    }
}
