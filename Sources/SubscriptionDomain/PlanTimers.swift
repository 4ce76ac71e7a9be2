/// The instants at which a subscription's plan changes with no event, written once: `status`
/// reads which of them an instant has passed, `timers` lists them.
struct PlanTimers {
    /// When the open billing issue began (nil when none is open).
    let billingIssueAt: Timestamp?
    /// The end of billing grace, while a billing issue is open (SK-D01).
    let billingGraceEnds: Timestamp?
    /// The end of the paid period or the trial.
    let expires: Timestamp
    /// The end of unverified grace after `expires` (SK-D04): only while auto-renew is on and the
    /// subscription is not paused, that is while the store means to charge at `expires`; never
    /// for a temporary grant, whose access ends at its `expires` (TEMPORARY-GRANT).
    let unverifiedGraceEnds: Timestamp?

    init(_ sub: Subscription, unverifiedGrace: Timestamp.Duration) {
        billingIssueAt = sub.billingIssueAt
        billingGraceEnds = sub.billingIssueAt == nil ? nil : sub.graceEndsAt
        expires = sub.expires
        unverifiedGraceEnds = sub.autoRenew && sub.pausedAt == nil && !sub.temporaryGrant ? sub.expires + unverifiedGrace : nil
    }

    /// The timers in the order they fire: billing grace's end while a billing issue is open, else
    /// `expires` and then unverified grace's end when there is one.
    var instants: [Timestamp] {
        if let ends = billingGraceEnds { return [ends] }
        return unverifiedGraceEnds.map { [expires, $0] } ?? [expires]
    }
}

extension PlanDecider {
    /// When the unverified grace after `sub`'s `expires` ends (SK-D04), by the same test as
    /// `status`; nil when it has none (auto-renew off, paused, a temporary grant).
    public func unverifiedGraceEnd(of sub: Subscription) -> Timestamp? {
        PlanTimers(sub, unverifiedGrace: unverifiedGrace).unverifiedGraceEnds
    }
}
