import SubscriptionDomain

/// What one user's fold adds to the report summary as of an instant: exactly the terms
/// `counts()`, `funnel()`, `revenue()` and `notifications()` of a snapshot take from that fold.
package struct UserContribution: Sendable {
    /// The user has a fold (an event by the instant, or a subscription received by transfer).
    package var exists = false
    package var counts = MetricCounts()
    package var reached: UInt8 = 0
    package var contexts: [FunnelProgress.ContextProgress] = []
    /// The day (since 1970) the user's first trial started.
    package var trialDay: Int64?
    package var trialStarted = false
    package var trialConverted = false
    package var gross: [UserBooks.Amount] = []
    package var refunded: [UserBooks.Amount] = []
    package var adjustment: [UserBooks.Amount] = []
    package var stock = SubscriberStock.none
    package var notifications: [NotificationEntry] = []

    static let none = UserContribution()

    init() {}

    /// The contribution of `fold` (nil: the user has none) as of `instant`.
    package init(_ fold: UserFold?, decider: PlanDecider, at instant: Timestamp) {
        guard let f = fold else { return }
        exists = true
        counts = f.counts
        reached = f.funnel.reached
        contexts = f.funnel.byContext
        trialDay = f.trialStartedAt.map { ($0.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400) }
        trialStarted = f.trialStartedAt != nil
        trialConverted = f.trialConverted
        gross = f.books.gross
        refunded = f.books.refunded
        adjustment = f.books.takehomeAdjustment
        stock = SubscriberStock.of(f.state, books: f.books, decider: decider, at: instant)
        notifications = f.notifications
    }

    /// Whether two lists of a user's notifications give the same schedule entries (the summary keeps no keys).
    package static func sameSchedule(_ a: [NotificationEntry], _ b: [NotificationEntry]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy {
            $0.kind == $1.kind && $0.fireAt == $1.fireAt && $0.inAppOnly == $1.inAppOnly && $0.scheduledAt == $1.scheduledAt
                && $0.cancelledAt == $1.cancelledAt && $0.channelSwitches == $1.channelSwitches
        }
    }

    /// The first instant after `instant` at which a fold's contribution can change without a new
    /// record: an instant the plan status compares with (end, billing issue, grace end, expiry,
    /// expiry + unverified grace: a superset of `PlanDecider.timers`), or a notification's fire
    /// time (its status turns due). Events after `instant` are the caller's to add.
    package static func nextChange(of fold: UserFold?, decider: PlanDecider, after instant: Timestamp) -> Timestamp? {
        guard let f = fold else { return nil }
        var next: Timestamp?
        func consider(_ t: Timestamp?) {
            guard let t, t > instant else { return }
            next = min(next ?? t, t)
        }
        if let sub = f.state.subscription {
            consider(sub.endedAt)
            consider(sub.billingIssueAt)
            consider(sub.graceEndsAt)
            consider(sub.expires)
            consider(sub.expires + decider.unverifiedGrace)
        }
        for n in f.notifications where !n.cancelled { consider(n.fireAt) }
        return next
    }
}
