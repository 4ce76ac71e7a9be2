import SubscriptionDomain

/// How many entries of the notification schedule are in each state, by kind: what the report
/// shows, counted without building the schedule (a million users' entries and their texts).
public struct NotificationSummary: Sendable, Equatable {
    /// Entries by kind, then status.
    public var byStatus: [ScheduledNotification.Kind: [ScheduledNotification.Status: Int]] = [:]
    /// Entries by kind that go in-app only (push off for billing).
    public var inAppOnly: [ScheduledNotification.Kind: Int] = [:]

    public func count(_ kind: ScheduledNotification.Kind, _ status: ScheduledNotification.Status) -> Int { byStatus[kind]?[status] ?? 0 }

    package init(byStatus: [ScheduledNotification.Kind: [ScheduledNotification.Status: Int]] = [:], inAppOnly: [ScheduledNotification.Kind: Int] = [:]) {
        self.byStatus = byStatus
        self.inAppOnly = inAppOnly
    }
}

extension LedgerSnapshot {
    /// The schedule of `notifications()` as of `options.asOf`, counted by kind and status.
    public func notificationSummary() -> NotificationSummary {
        var s = NotificationSummary()
        let instant = options.asOf
        users.forEachFold { f in
            for n in f.notifications {
                let status: ScheduledNotification.Status = n.cancelled ? .cancelled : (n.fireAt <= instant ? .due : .scheduled)
                s.byStatus[n.kind, default: [:]][status, default: 0] += 1
                if n.inAppOnly { s.inAppOnly[n.kind, default: 0] += 1 }
            }
        }
        return s
    }
}
