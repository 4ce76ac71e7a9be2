/// The plan states of seed 004 (CH08 L349). Raw values are printed in JSON and frozen.
public enum PlanState: String, Sendable, Hashable, CaseIterable {
    case guest, free, trial, pro
    case proGrace = "pro_grace"
}

/// Why a user is in `pro_grace`.
public enum GraceReason: String, Sendable, Hashable { case billing, unverified }

/// A user's plan as of one instant: what `state --format json` prints.
public struct PlanView: Sendable, Equatable {
    public var user: String
    public var planState: PlanState
    public var graceReason: GraceReason?
    public var graceEndsAt: Timestamp?
    public var entitlements: [String]
    public var product: String?
    public var expiresAt: Timestamp?
    public var autoRenew: Bool?
    /// When a cancellation turned auto-renew off, while it stays off (nil when on, or without a subscription).
    public var autoRenewOffAt: Timestamp?
    public var trialEligible: Bool
    public var credits: Int
    public var billingIssue: Bool
    public var badge: Int
    public var tier: String
    public var limits: [String: FeatureLimit]
    /// The rule that explains this state.
    public var rule: Rule
}

extension PlanDecider {
    /// Evaluates the folded facts at `instant`: trial ends, grace ends and expiries take effect
    /// here without any event. The state must hold only events with `time <= instant`.
    public func view(_ s: SubscriberState, at instant: Timestamp) -> PlanView {
        let status = status(s, at: instant)
        let sub = s.subscription
        let product = sub.flatMap { profile.product($0.product) }
        // A product the catalog does not list gives the profile's default, if it accepts such products.
        let unknown = sub != nil && product == nil ? profile.unknownProductGrant : nil
        let entitlement = product?.entitlement ?? unknown?.entitlement
        let tierName = status.hasAccess ? (product?.tier ?? unknown?.tier ?? "free") : "free"
        return PlanView(
            user: s.user, planState: status.planState, graceReason: status.graceReason, graceEndsAt: status.graceEndsAt,
            entitlements: status.hasAccess ? (entitlement.map { [$0] } ?? []) : [],
            product: sub?.product, expiresAt: sub?.expires, autoRenew: sub.map { $0.autoRenew && $0.endedAt == nil && $0.pausedAt == nil },
            autoRenewOffAt: sub?.autoRenewOffAt,
            trialEligible: profile.trialDays > 0 && !s.trialUsedGroups.contains(profile.primaryGroup),
            credits: s.credits, billingIssue: status.billingIssue, badge: status.billingIssue ? 1 : 0,
            tier: tierName, limits: profile.tier(tierName)?.limits ?? [:], rule: status.rule)
    }

    /// The instants after `from` (up to `to`) at which a timer changes the plan without an event.
    public func timers(_ s: SubscriberState, after from: Timestamp, upTo to: Timestamp) -> [Timestamp] {
        guard let sub = s.subscription, sub.endedAt == nil else { return [] }
        return PlanTimers(sub, unverifiedGrace: profile.unverifiedGrace).instants.filter { $0 > from && $0 <= to }.sorted()
    }
}
