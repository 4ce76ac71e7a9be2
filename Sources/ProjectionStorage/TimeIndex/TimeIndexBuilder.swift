import Projections
import EventStore
import SubscriptionDomain

/// Gathers the differences users' walks give (`UserSteps`), then sorts them by key and time and
/// sums them into a `TimeIndex`. Builders of parallel partitions merge before `finish`.
struct TimeIndexBuilder: Sendable {
    struct Entry: Sendable {
        var key: Int32
        var time: Int64
        var delta: Int64
    }

    private(set) var keys: [TimeKey] = []
    private var ids: [TimeKey: Int32] = [:]
    private(set) var entries: [Entry] = []
    /// The earliest event time walked.
    var firstEvent: Timestamp?
    /// The sum of the magnitudes of every amount of money given (saturating): while it is within
    /// Int64, no sum of money over users at any instant can saturate, in any order of summing.
    private(set) var moneyMagnitude: Int64 = 0

    init() {}

    mutating func add(_ key: TimeKey, _ time: Timestamp, _ delta: Int64) {
        guard delta != 0 else { return }
        let id: Int32
        if let known = ids[key] { id = known } else {
            id = Int32(keys.count)
            keys.append(key)
            ids[key] = id
        }
        if key.isMoney { moneyMagnitude = moneyMagnitude.addingSaturated(delta == .min ? .max : abs(delta)) }
        entries.append(Entry(key: id, time: time.nanoseconds, delta: delta))
    }

    /// Takes in a difference already counted in a magnitude (an overlay's kept steps, `carry(_:)`).
    mutating func carry(_ key: TimeKey, _ time: Int64, _ delta: Int64) {
        let magnitude = moneyMagnitude
        add(key, Timestamp(nanoseconds: time), delta)
        moneyMagnitude = magnitude
    }

    /// Adds a magnitude counted elsewhere (the overlay's kept differences were counted when first given).
    mutating func count(magnitude: Int64) { moneyMagnitude = moneyMagnitude.addingSaturated(magnitude) }

    mutating func noteEvent(_ t: Timestamp) {
        if firstEvent.map({ t < $0 }) ?? true { firstEvent = t }
    }

    /// Takes in another builder's entries (its key numbers mapped onto this one's).
    mutating func merge(_ other: TimeIndexBuilder) {
        let map = other.keys.map { key -> Int32 in
            if let known = ids[key] { return known }
            let id = Int32(keys.count)
            keys.append(key)
            ids[key] = id
            return id
        }
        entries.reserveCapacity(entries.count + other.entries.count)
        for e in other.entries { entries.append(Entry(key: map[Int(e.key)], time: e.time, delta: e.delta)) }
        if let t = other.firstEvent { noteEvent(t) }
        moneyMagnitude = moneyMagnitude.addingSaturated(other.moneyMagnitude)
    }

    /// Per key in key order, the distinct instants at which its sum changes and the sum from each
    /// on; instants whose differences cancel out, and keys left without a step, are not kept.
    consuming func finishSteps() -> TimeSteps {
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var rank = [Int32](repeating: 0, count: keys.count)
        for (r, k) in order.enumerated() { rank[k] = Int32(r) }
        var sorted = entries
        entries = []
        for i in sorted.indices { sorted[i].key = rank[Int(sorted[i].key)] }
        sorted.sort { $0.key != $1.key ? $0.key < $1.key : $0.time < $1.time }
        var steps = TimeSteps()
        steps.times.reserveCapacity(sorted.count)
        steps.sums.reserveCapacity(sorted.count)
        var k: Int32 = -1
        var sum: Int64 = 0
        for e in sorted {
            if e.key != k {
                if k >= 0 { steps.closeKey(keys[order[Int(k)]]) }
                k = e.key
                sum = 0
            }
            sum &+= e.delta
            steps.appendStep(e.time, sum)
        }
        if k >= 0 { steps.closeKey(keys[order[Int(k)]]) }
        return steps
    }

    /// The index of a whole log (no overlay) as of `position`.
    consuming func finish(fingerprint: String, position: UInt64, hash: EventStore.SHA256.Digest) -> TimeIndex {
        let first = firstEvent, magnitude = moneyMagnitude
        return TimeIndex(fingerprint: fingerprint, position: position, hash: hash, firstEvent: first,
                         base: .memory(finishSteps()), baseMagnitude: magnitude)
    }
}
