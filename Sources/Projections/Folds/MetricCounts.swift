import SubscriptionDomain

/// One user's analytics counts, one slot per `Metric`, held inline (a million folds: no heap).
package struct MetricCounts: Sendable, Equatable {
    /// Slots 0…15, and slot 16 beside them: 68 bytes. `capacity` is what this layout holds; a test
    /// fails if `Metric` outgrows it.
    var low = SIMD16<UInt32>()
    var last: UInt32 = 0

    /// The number of metrics this inline layout holds.
    package static let capacity = 17

    package subscript(m: Metric) -> UInt32 {
        get { self[slot: m.slot] }
        set { self[slot: m.slot] = newValue }
    }

    package subscript(slot i: Int) -> UInt32 {
        get { i < 16 ? low[i] : last }
        set {
            assert(i < Self.capacity, "metric slot \(i) is past MetricCounts.capacity")
            if i < 16 { low[i] = newValue } else { last = newValue }
        }
    }

    /// Equal when every slot is: the sixteen low slots compared as one vector. (The synthesized
    /// `==` compares a `SIMD16` lane by lane, each lane taken from memory, and the time index's
    /// walk compares a user's counts at every instant it samples them.)
    package static func == (a: MetricCounts, b: MetricCounts) -> Bool {
        a.last == b.last && all(a.low .== b.low)
    }

    /// The metric names, in slot order.
    static let names: [String] = Metric.all.map(\.name)

    /// Counts one occurrence of `m`.
    mutating func add(_ m: Metric) {
        let i = m.slot
        assert(i < Self.capacity, "metric slot \(i) is past MetricCounts.capacity")
        if i < 16 { low[i] &+= 1 } else { last &+= 1 }
    }
}
