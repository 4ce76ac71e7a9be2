import SubscriptionDomain

/// One user's analytics counts, one slot per metric of `LedgerSnapshot.metricNames`, held inline.
struct MetricCounts: Sendable, Codable, Equatable {
    var values = SIMD32<UInt32>()

    static let names: [String] = EventType.countedAppEvents.map(\.rawValue)
        + ["trial_started", "subscription_started", "renewal", "trial_converted", "cancellation", "billing_issue", "refund", "expiration"]

    enum Metric: Int {
        case trialStarted = 9, subscriptionStarted, renewal, trialConverted, cancellation, billingIssue, refund, expiration
    }

    mutating func add(_ m: Metric) { values[m.rawValue] &+= 1 }

    /// Counts an app event of `countedAppEvents` by its index there.
    mutating func add(appEvent index: Int) { values[index] &+= 1 }
}
