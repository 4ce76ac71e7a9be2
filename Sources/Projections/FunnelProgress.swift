import SubscriptionDomain

/// How far one user got through the paywall funnel, overall and per paywall `context`.
struct FunnelProgress: Sendable, Codable {
    static let steps: [EventType] = [.paywallViewed, .paywallCtaTapped, .purchaseStarted, .purchaseSuccess]
    /// Steps reached overall (0…4).
    var reached = 0
    /// Steps reached per context (the context of the paywall view that started the attempt).
    var byContext: [String: Int] = [:]
    var currentContext: String?

    /// Each step counts only after the one before it.
    mutating func record(_ e: Event) {
        guard let step = Self.steps.firstIndex(of: e.type) else { return }
        if step == 0 {
            currentContext = e.data.context ?? "unknown"
        } else if let c = e.data.context, e.type == .paywallCtaTapped {
            currentContext = c
        }
        if step == reached { reached += 1 }
        if let c = currentContext, byContext[c, default: 0] == step { byContext[c] = step + 1 }
    }
}
