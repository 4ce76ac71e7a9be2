import SubscriptionDomain

/// Everything the read models need from one user, folded event by event in effect order.
struct UserFold: Sendable, Codable {
    var state: SubscriberState
    var counts: [String: Int] = [:]
    var funnel = FunnelProgress()
    var notifications: [ScheduledNotification] = []
    var books = UserBooks()
    var trialStartedAt: Timestamp?
    var trialConverted = false
    /// An event came with a time before one already folded: the user must be folded again in order.
    var outOfOrder = false
    /// The subscription this user transferred away, for its recipient.
    var transferOut: Transfer?

    /// A subscription handed to another user.
    struct Transfer: Sendable, Codable {
        var to: String
        var time: Timestamp
        var subscription: Subscription
    }

    init(user: String) { state = SubscriberState(user: user) }

    mutating func apply(_ e: Event, _ decider: PlanDecider, _ options: ReplayOptions) {
        if let last = state.lastEventTime, e.time < last { outOfOrder = true }
        let before = state.subscription
        decider.evolve(&state, e)
        let rule = state.rule
        let counted = options.inWindow(e.time) && (options.includeSandbox || rule != .sandboxApart)
        if counted {
            if EventType.countedAppEvents.contains(e.type) { counts[e.type.rawValue, default: 0] += 1 }
            switch e.type {
            case .purchase:
                if rule == .purchaseStartsTrial || rule == .trialOncePerGroup { counts["trial_started", default: 0] += 1 }
                if rule == .purchaseStartsPro { counts["subscription_started", default: 0] += 1 }
            case .renewal:
                if rule != .duplicateTransaction {
                    counts["renewal", default: 0] += 1
                    if rule == .trialConverted { counts["trial_converted", default: 0] += 1 }
                }
            case .cancellation, .billingIssue, .refund, .expiration:
                counts[e.type.rawValue, default: 0] += 1
            default: break
            }
            funnel.record(e)
        }
        if rule == .purchaseStartsTrial || rule == .trialOncePerGroup, trialStartedAt == nil { trialStartedAt = e.time }
        if rule == .trialConverted { trialConverted = true }
        if rule == .transferOut, let to = e.data.to, let b = before { transferOut = Transfer(to: to, time: e.time, subscription: b) }
        books.record(e, rule: rule, before: before, profile: decider.profile, includeSandbox: options.includeSandbox)
        scheduleNotifications(e, rule: rule, before: before, profile: decider.profile)
    }

    private mutating func scheduleNotifications(_ e: Event, rule: Rule, before: Subscription?, profile: Profile) {
        let channels = state.disabledCategories.contains("billing") ? ["in_app"] : ["push", "in_app"]
        func link(_ context: String) -> String { "\(profile.deepLinkScheme)://paywall?context=\(context)" }
        switch rule {
        case .purchaseStartsTrial, .trialOncePerGroup:
            guard let sub = state.subscription, !notifications.contains(where: { $0.key == sub.transaction }) else { return }
            notifications.append(ScheduledNotification(
                user: state.user, kind: .trialEnding, fireAt: sub.expires - profile.trialReminderLead,
                deepLink: link("trialEnding"), copy: profile.trialEndingCopy, channels: channels, status: .scheduled, key: sub.transaction))
        case .refundCurrent, .revoke, .transferOut, .expiration:
            // The trial ended early: its reminder is dropped if it has not fired yet.
            guard let b = before, b.isTrial else { return }
            for i in notifications.indices where notifications[i].key == b.transaction && notifications[i].kind == .trialEnding
                && notifications[i].fireAt > e.time {
                notifications[i].status = .cancelled
            }
        case .billingGrace:
            guard let sub = state.subscription, before?.billingIssueAt == nil else { return }
            let key = "billing:\(sub.transaction)"
            guard !notifications.contains(where: { $0.key == key }) else { return }
            notifications.append(ScheduledNotification(
                user: state.user, kind: .paymentFailed, fireAt: e.time, deepLink: link("paymentFailed"),
                copy: profile.paymentFailedCopy, channels: channels, status: .scheduled, key: key))
        default:
            return
        }
    }

    /// The schedule as of `instant`: fired entries are `due`, dropped ones `cancelled`.
    func schedule(at instant: Timestamp) -> [ScheduledNotification] {
        notifications.map { n in
            var n = n
            if n.status != .cancelled { n.status = n.fireAt <= instant ? .due : .scheduled }
            return n
        }
    }
}
