import SubscriptionDomain

/// One user's analytics counts, one slot per metric of `LedgerSnapshot.metricNames`, held inline.
struct MetricCounts: Sendable, Equatable {
    /// The first 16 metrics, and the 17th (`expiration`) beside them: 68 bytes, no heap.
    var low = SIMD16<UInt32>()
    var last: UInt32 = 0

    subscript(i: Int) -> UInt32 {
        get { i < 16 ? low[i] : last }
        set { if i < 16 { low[i] = newValue } else { last = newValue } }
    }

    static let names: [String] = EventType.countedAppEvents.map(\.rawValue)
        + ["trial_started", "subscription_started", "renewal", "trial_converted", "cancellation", "billing_issue", "refund", "expiration"]

    enum Metric: Int {
        case trialStarted = 9, subscriptionStarted, renewal, trialConverted, cancellation, billingIssue, refund, expiration
    }

    mutating func add(_ m: Metric) { add(appEvent: m.rawValue) }

    /// Counts the metric at `index` of `names` (app events first, in `countedAppEvents` order).
    mutating func add(appEvent index: Int) {
        if index < 16 { low[index] &+= 1 } else { last &+= 1 }
    }
}
