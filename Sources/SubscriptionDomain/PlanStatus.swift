/// The time-dependent part of a plan as of one instant: the state, why, and until when.
public struct PlanStatus: Sendable, Equatable {
    public var planState: PlanState
    public var graceReason: GraceReason?
    public var graceEndsAt: Timestamp?
    public var billingIssue: Bool
    /// The rule that explains this state.
    public var rule: Rule
    /// Whether the plan gives access (trial, pro or pro_grace).
    public var hasAccess: Bool { planState == .trial || planState == .pro || planState == .proGrace }
}

extension PlanDecider {
    /// The plan state at `instant` and the rule behind it, without the profile lookups of `view`
    /// (what the revenue report needs for a million users).
    public func status(_ s: SubscriberState, at instant: Timestamp) -> PlanStatus {
        var status = PlanStatus(planState: (s.hasAccount || s.everPurchased) ? .free : .guest, billingIssue: false, rule: s.rule)
        guard let sub = s.subscription else { return status }
        let timers = PlanTimers(sub, unverifiedGrace: profile.unverifiedGrace)
        if let ended = sub.endedAt, ended <= instant {
            status.planState = .free
        } else if let issue = timers.billingIssueAt, issue <= instant, let ends = timers.billingGraceEnds {
            status.billingIssue = true
            if instant < ends {
                status.planState = .proGrace; status.graceReason = .billing; status.graceEndsAt = ends; status.rule = .billingGrace
            } else {
                status.planState = .free; status.rule = .billingGraceEnded
            }
        } else if instant < timers.expires {
            status.planState = sub.isTrial ? .trial : .pro
        } else if let ends = timers.unverifiedGraceEnds {
            if instant < ends {
                status.planState = .proGrace; status.graceReason = .unverified; status.graceEndsAt = ends; status.rule = .unverifiedGrace
            } else {
                status.planState = .free; status.rule = .unverifiedGraceEnded
            }
        } else if sub.temporaryGrant {
            // The grant's access ends at its expires: the store's confirmation would have replaced it.
            status.planState = .free
            status.rule = .temporaryGrantEnded
        } else if sub.autoRenew {
            // Paused: the store did not mean to charge at expires, so there is nothing to wait for.
            status.planState = .free
            status.rule = .pauseEnded
        } else {
            status.planState = .free
            status.rule = sub.isTrial ? .trialEnded : .cancelledEnded
        }
        return status
    }
}
