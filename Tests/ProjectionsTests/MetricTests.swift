import Testing
@testable import Projections
import SubscriptionDomain

@Suite struct MetricLayout {
    /// The report's keys and their order are the contract's; a renamed Swift case must not move them.
    @Test func namesAndOrderArePinned() {
        #expect(MetricCounts.names == [
            "paywall_viewed", "paywall_cta_tapped", "purchase_started", "purchase_pending", "purchase_success",
            "purchase_failed", "restore_clicked", "restore_success", "restore_failed",
            "trial_started", "subscription_started", "renewal", "trial_converted", "cancellation",
            "billing_issue", "refund", "expiration",
        ])
        #expect(LedgerSnapshot.metricNames == MetricCounts.names)
    }

    /// A metric added past the inline storage would add into another metric's slot: this fails first.
    @Test func everyMetricHasASlotOfItsOwnInTheInlineCounts() {
        #expect(Metric.allCases.count <= MetricCounts.capacity)
        #expect(Metric.all.map(\.slot) == Array(Metric.all.indices))
        var counts = MetricCounts()
        for m in Metric.all { counts[m] = UInt32(m.slot + 1) }
        for m in Metric.all { #expect(counts[m] == UInt32(m.slot + 1), "\(m.name)") }
        for m in Metric.all { counts.add(m) }
        for m in Metric.all { #expect(counts[m] == UInt32(m.slot + 2), "\(m.name)") }
    }

    /// Counts are equal when every slot is, the one past the sixteen inline lanes included: a
    /// change of any one slot makes them differ (`==` compares the lanes as one vector).
    @Test func countsAreEqualExactlyWhenEverySlotIs() {
        var base = MetricCounts()
        for m in Metric.all { base[m] = UInt32(3 * m.slot + 1) }
        #expect(base == base)
        for m in Metric.all {
            for change: UInt32 in [1, 1 << 16, 1 << 31] {
                var other = base
                other[m] = base[m] &+ change
                #expect(other != base, "\(m.name) + \(change)")
                other[m] = base[m]
                #expect(other == base, "\(m.name)")
            }
        }
    }

    /// An event counted by itself counts under its own type's name; purchases and renewals count by their rule.
    @Test func aTypeCountedPerEventCountsUnderItsOwnName() {
        var counted: [String] = []
        for type in EventType.allCases {
            guard let m = Metric.countedPerEvent(type) else { continue }
            #expect(m.name == type.rawValue)
            counted.append(m.name)
        }
        #expect(Metric.countedPerEvent(.purchase) == nil && Metric.countedPerEvent(.renewal) == nil)
        #expect(Metric.countedPerEvent(.pause) == nil)
        #expect(Set(counted) == Set(MetricCounts.names).subtracting(["trial_started", "subscription_started", "renewal", "trial_converted"]))
    }
}
