import SubscriptionDomain

/// Everything the read models need from one user, folded event by event in effect order.
package struct UserFold: Sendable, Equatable, UserKeyed {
    package var state: SubscriberState
    package var user: String { state.user }
    package var counts = MetricCounts()
    package var funnel = FunnelProgress()
    package var notifications: [NotificationEntry] = []
    package var books = UserBooks()
    package var trialStartedAt: Timestamp?
    package var trialConverted = false
    /// An event came with a time before one already folded: the user must be folded again in order.
    package var outOfOrder = false
    /// The subscription this user transferred away, for its recipient.
    package var transferOut: Transfer? {
        get { transferBox.first }
        set { transferBox = newValue.map { [$0] } ?? [] }
    }
    private var transferBox: [Transfer] = []

    /// A subscription handed to another user.
    package struct Transfer: Sendable, Equatable {
        package var to: String
        package var time: Timestamp
        package var subscription: Subscription
        /// The subscription as the recipient's Decider folds it.
        var received: ReceivedTransfer { ReceivedTransfer(subscription: subscription, time: time) }

        package init(to: String, time: Timestamp, subscription: Subscription) {
            self.to = to
            self.time = time
            self.subscription = subscription
        }
    }

    package init(user: String) { state = SubscriberState(user: user) }

    package mutating func apply(_ e: Event, _ decider: PlanDecider, _ options: ReplayOptions) {
        apply(e, decider, Counting(options))
    }

    /// What `apply` reads of a replay's options: a small value (the options, profile and all, were
    /// copied for each event handed to `apply`).
    package struct Counting: Sendable {
        let from: Timestamp?, to: Timestamp?
        /// Sandbox events count too.
        let includeSandbox: Bool

        package init(_ options: ReplayOptions) {
            (from, to, includeSandbox) = (options.from, options.to, options.includeSandbox)
        }

        /// Whether events at `t` are counted (`ReplayOptions.inWindow`).
        func inWindow(_ t: Timestamp) -> Bool {
            (from.map { t >= $0 } ?? true) && (to.map { t < $0 } ?? true)
        }
    }

    package mutating func apply(_ e: Event, _ decider: PlanDecider, _ options: Counting) {
        if let last = state.lastEventTime, e.time < last { outOfOrder = true }
        // What the notification rules need from before the event (not a copy of the whole subscription).
        let hadBillingIssue = state.hasBillingIssue
        let transition = decider.evolve(&state, e)
        let rule = transition.rule
        // A family member's purchase or renewal, or a temporary grant: access, not a sale (no revenue, not counted as a renewal).
        let memberAccess = (e.type == .purchase || e.type == .renewal) && rule != .sandboxApart && state.productionIsAccessOnly
        let counted = options.inWindow(e.time) && (options.includeSandbox || rule != .sandboxApart)
        if counted {
            if let m = Metric.countedPerEvent(e.type) {
                counts.add(m)
            } else if e.type == .purchase {
                // A sandbox purchase (counted only with includeSandbox) is a start as the rule its sandbox subscription followed.
                if rule == .purchaseStartsTrial || rule == .trialOncePerGroup || transition.sandboxRule == .purchaseStartsTrial { counts.add(.trialStarted) }
                if rule == .purchaseStartsPro || transition.sandboxRule == .purchaseStartsPro { counts.add(.subscriptionStarted) }
            } else if case .renewal(let r) = e.data, rule != .duplicateTransaction, !memberAccess {
                counts.add(.renewal)
                // A sandbox renewal converts a sandbox trial when it names the sandbox environment.
                if rule == .trialConverted || (r.environment == .sandbox && transition.sandboxRule == .trialConverted) { counts.add(.trialConverted) }
            }
            funnel.record(e)
        }
        if rule == .purchaseStartsTrial || rule == .trialOncePerGroup, trialStartedAt == nil { trialStartedAt = e.time }
        if rule == .trialConverted { trialConverted = true }
        if rule == .transferOut, case .transfer(let t) = e.data, var given = state.subscription {
            given.endedAt = nil
            given.endedBy = nil
            transferOut = Transfer(to: t.to, time: e.time, subscription: given)
        }
        if !memberAccess { books.record(e, rule: rule, decider: decider, includeSandbox: options.includeSandbox) }
        scheduleNotifications(e, rule: rule, hadBillingIssue: hadBillingIssue, decider: decider)
    }

    private mutating func scheduleNotifications(_ e: Event, rule: Rule, hadBillingIssue: Bool, decider: PlanDecider) {
        let inAppOnly = state.disabledCategories.contains("billing")
        // The production subscription's fields are read in place (`subscription` would copy the whole of it).
        switch rule {
        case .purchaseStartsTrial, .trialOncePerGroup:
            guard let s = state.index(of: .production) else { return }
            let transaction = state.subscriptions[s].transaction
            guard !notifications.contains(where: { $0.key == transaction }) else { return }
            notifications.append(NotificationEntry(kind: .trialEnding, fireAt: state.subscriptions[s].expires - decider.trialReminderLead,
                                                   key: transaction, inAppOnly: inAppOnly, scheduledAt: e.time))
        case .refundCurrent, .revoke, .transferOut, .expiration:
            // The trial ended early: its reminder is dropped if it has not fired yet.
            // Ending access leaves the subscription's transaction and trial flag as they were.
            guard let s = state.index(of: .production), state.subscriptions[s].isTrial else { return }
            let transaction = state.subscriptions[s].transaction
            for i in notifications.indices where notifications[i].key == transaction && notifications[i].kind == .trialEnding
                && notifications[i].fireAt > e.time && notifications[i].cancelledAt == nil {
                notifications[i].cancelledAt = e.time
            }
        case .billingGrace:
            guard let s = state.index(of: .production), !hadBillingIssue else { return }
            let key = "billing:" + state.subscriptions[s].transaction
            guard !notifications.contains(where: { $0.key == key }) else { return }
            notifications.append(NotificationEntry(kind: .paymentFailed, fireAt: e.time, key: key, inAppOnly: inAppOnly, scheduledAt: e.time))
        case .notificationCategory:
            // The setting at send time decides the channels (CH27 L203–L204): a switch reaches the
            // notifications that have not fired yet; those that fired were sent as they were.
            for i in notifications.indices where notifications[i].fireAt > e.time && notifications[i].inAppOnly != inAppOnly {
                notifications[i].inAppOnly = inAppOnly
                notifications[i].channelSwitches.append(e.time)
            }
        default:
            return
        }
    }

    /// Appends a user's schedule as of `instant` to `out`: fired entries are `due`, dropped ones `cancelled`.
    static func schedule(_ notifications: [NotificationEntry], of user: String, at instant: Timestamp, texts: NotificationTexts,
                         into out: inout [ScheduledNotification]) {
        for n in notifications {
            let trial = n.kind == .trialEnding
            out.append(ScheduledNotification(
                user: user, kind: n.kind, fireAt: n.fireAt,
                deepLink: trial ? texts.trialEndingLink : texts.paymentFailedLink,
                copy: trial ? texts.trialEndingCopy : texts.paymentFailedCopy,
                channels: n.inAppOnly ? NotificationTexts.inAppOnly : NotificationTexts.pushAndInApp,
                status: n.cancelled ? .cancelled : (n.fireAt <= instant ? .due : .scheduled)))
        }
    }
}

/// A profile's notification links and copy, built once and shared by every scheduled entry.
package struct NotificationTexts {
    package static let pushAndInApp = ["push", "in_app"]
    package static let inAppOnly = ["in_app"]
    package let trialEndingLink: String
    package let paymentFailedLink: String
    package let trialEndingCopy: String
    package let paymentFailedCopy: String

    package init(_ profile: Profile) {
        trialEndingLink = "\(profile.deepLinkScheme)://paywall?context=trialEnding"
        paymentFailedLink = "\(profile.deepLinkScheme)://paywall?context=paymentFailed"
        trialEndingCopy = profile.trialEndingCopy
        paymentFailedCopy = profile.paymentFailedCopy
    }
}

/// A notification as the fold keeps it: what, when, which trial or issue (the cap), whether push
/// was off, and when each of those came about, so that the entry as any earlier instant's fold held
/// it is read from it (`asOf`) rather than folded again.
package struct NotificationEntry: Sendable, Equatable {
    package var kind: ScheduledNotification.Kind
    package var fireAt: Timestamp
    /// The trial's or the billing issue's transaction: one notification per trial and per issue.
    package var key: String
    /// Push is off: the `billing` category was disabled as of `fireAt` (or, before it fires, as of
    /// the last event folded).
    package var inAppOnly: Bool
    /// The time of the event that scheduled it.
    package var scheduledAt: Timestamp
    /// The time of the event that dropped it (the trial ended before the reminder fired); nil while it stands.
    package var cancelledAt: Timestamp?
    /// The times of the events that switched `inAppOnly`, in effect order: each one flipped it.
    package var channelSwitches: [Timestamp] = []

    /// Dropped before it fired.
    package var cancelled: Bool { cancelledAt != nil }

    package init(kind: ScheduledNotification.Kind, fireAt: Timestamp, key: String, inAppOnly: Bool, scheduledAt: Timestamp,
                 cancelledAt: Timestamp? = nil, channelSwitches: [Timestamp] = []) {
        self.kind = kind
        self.fireAt = fireAt
        self.key = key
        self.inAppOnly = inAppOnly
        self.scheduledAt = scheduledAt
        self.cancelledAt = cancelledAt
        self.channelSwitches = channelSwitches
    }

    /// The entry as the fold up to `instant` (events at or before it) holds it; nil when it was
    /// scheduled later. The fold only appends entries, drops one once and flips its channel at
    /// events, each stamped here with the event's time, so this is that fold's entry exactly.
    package func asOf(_ instant: Timestamp) -> NotificationEntry? {
        guard scheduledAt <= instant else { return nil }
        var out = self
        if let c = cancelledAt, c > instant { out.cancelledAt = nil }
        if let last = channelSwitches.last, last > instant {
            let kept = channelSwitches.prefix { $0 <= instant }
            if (channelSwitches.count - kept.count) % 2 == 1 { out.inAppOnly.toggle() }
            out.channelSwitches = Array(kept)
        }
        return out
    }
}
