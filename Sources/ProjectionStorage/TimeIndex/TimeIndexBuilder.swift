import Projections
import EventStore
import SubscriptionDomain
import Platform

/// Gathers the differences users' walks give (`UserSteps`), then groups them by key, sorts each
/// key's by time and sums them into a `TimeIndex`. The builders of parallel partitions are
/// finished together (`finish(_:fingerprint:position:hash:)`).
struct TimeIndexBuilder: Sendable {
    struct Entry: Sendable {
        var key: Int32
        var time: Int64
        var delta: Int64
    }

    /// One difference of a key, once the differences are grouped by key.
    struct Change: Sendable {
        var time: Int64
        var delta: Int64
    }

    private(set) var keys: [TimeKey] = []
    /// Key numbers by kind, name and number packed in one word (`PackedKeys`); keys that do not
    /// pack (a name past the 65,535th, a number past ±2⁴²) by the whole key.
    private var packed = PackedKeys()
    private var others: [TimeKey: Int32] = [:]
    /// The names of keys so far (0: no name), and the last one looked up.
    private var names: [String: Int] = ["": 0]
    private var lastName = (name: "", number: 0)
    private(set) var entries: [Entry] = []
    /// The earliest event time walked.
    var firstEvent: Timestamp?
    /// The sum of the magnitudes of every amount of money given (saturating): while it is within
    /// Int64, no sum of money over users at any instant can saturate, in any order of summing.
    private(set) var moneyMagnitude: Int64 = 0

    init() {}

    mutating func add(_ key: TimeKey, _ time: Timestamp, _ delta: Int64) {
        guard delta != 0 else { return }
        let id = number(of: key)
        if key.isMoney { moneyMagnitude = moneyMagnitude.addingSaturated(delta == .min ? .max : abs(delta)) }
        entries.append(Entry(key: id, time: time.nanoseconds, delta: delta))
    }

    /// The key's number in this builder (a new one when it is new).
    private mutating func number(of key: TimeKey) -> Int32 {
        let next = Int32(keys.count)
        let id: Int32
        if let word = PackedKeys.pack(key, name: nameNumber(key.name)) {
            id = packed.number(of: word, else: next)
        } else if let known = others[key] {
            id = known
        } else {
            others[key] = next
            id = next
        }
        if id == next { keys.append(key) }
        return id
    }

    /// The number of a key's name (0: none), numbered as first seen.
    private mutating func nameNumber(_ name: String) -> Int {
        if name.isEmpty { return 0 }
        if name == lastName.name { return lastName.number }
        let n: Int
        if let known = names[name] { n = known } else {
            n = names.count
            names[name] = n
        }
        lastName = (name, n)
        return n
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

    /// Per key in key order, the distinct instants at which its sum changes and the sum from each
    /// on; instants whose differences cancel out, and keys left without a step, are not kept.
    consuming func finishSteps() -> TimeSteps {
        var parts = [self]
        return Self.steps(of: &parts)
    }

    /// The steps of the differences of every part (partitions' builders, emptied here): their keys
    /// numbered once, the differences grouped by key (a counting pass; each part's let go once
    /// grouped), in two halves of about as many differences each, the halves sorted by time and
    /// summed on two cores.
    static func steps(of parts: inout [TimeIndexBuilder]) -> TimeSteps {
        var all = TimeIndexBuilder()
        var ranks: [[Int]] = []
        for p in parts { ranks.append(p.keys.map { Int(all.number(of: $0)) }) }
        let keys = all.keys
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var rank = [Int](repeating: 0, count: keys.count)
        for (r, k) in order.enumerated() { rank[k] = r }
        for p in ranks.indices { ranks[p] = ranks[p].map { rank[$0] } }
        // Where each key's differences start, keys in order.
        var starts = [Int](repeating: 0, count: keys.count + 1)
        for p in parts.indices {
            let rank = ranks[p]
            for e in parts[p].entries { starts[rank[Int(e.key)] + 1] += 1 }
        }
        for r in 0..<keys.count { starts[r + 1] += starts[r] }
        let total = starts[keys.count]
        // The first key of the second half: the one holding the middle difference.
        var split = 0
        while split < keys.count, starts[split] < total / 2 { split += 1 }
        var first = [Change](repeating: Change(time: 0, delta: 0), count: starts[split])
        var second = [Change](repeating: Change(time: 0, delta: 0), count: total - starts[split])
        var next = starts
        for p in parts.indices {
            let rank = ranks[p], entries = parts[p].entries
            parts[p] = TimeIndexBuilder()
            for e in entries {
                let r = rank[Int(e.key)]
                let i = next[r]
                next[r] += 1
                if r < split { first[i] = Change(time: e.time, delta: e.delta) } else { second[i - starts[split]] = Change(time: e.time, delta: e.delta) }
            }
        }
        let sortedKeys = order.map { keys[$0] }
        let (a, b) = Parallel.both(
            { Self.summed(&first, keys: sortedKeys[0..<split], starts: starts[0...split], offset: 0) },
            { Self.summed(&second, keys: sortedKeys[split...], starts: starts[split...], offset: starts[split]) })
        return TimeSteps.concatenated(a, b)
    }

    /// The steps of `keys`, whose differences are `changes[starts[k] - offset ..< starts[k + 1] - offset]`
    /// (each key's sorted by time here).
    private static func summed(_ changes: inout [Change], keys: ArraySlice<TimeKey>, starts: ArraySlice<Int>, offset: Int) -> TimeSteps {
        var steps = TimeSteps()
        steps.times.reserveCapacity(changes.count)
        steps.sums.reserveCapacity(changes.count)
        for k in keys.indices {
            let range = (starts[k] - offset)..<(starts[k + 1] - offset)
            changes[range].sort { $0.time < $1.time }
            var sum: Int64 = 0
            for c in changes[range] {
                sum &+= c.delta
                steps.appendStep(c.time, sum)
            }
            steps.closeKey(keys[k])
        }
        return steps
    }

    /// The index of a whole log (no overlay) as of `position`, from the differences of every part
    /// (emptied here).
    static func finish(_ parts: inout [TimeIndexBuilder], fingerprint: String, position: UInt64, hash: EventStore.SHA256.Digest) -> TimeIndex {
        var first: Timestamp?
        var magnitude: Int64 = 0
        for p in parts {
            if let t = p.firstEvent, first.map({ t < $0 }) ?? true { first = t }
            magnitude = magnitude.addingSaturated(p.moneyMagnitude)
        }
        return TimeIndex(fingerprint: fingerprint, position: position, hash: hash, firstEvent: first,
                         base: .memory(steps(of: &parts)), baseMagnitude: magnitude)
    }
}

/// Key numbers by kind, name number and number packed in one word: an open-addressing table (the
/// builder looks a key up for every difference; hashing the whole key, name and all, costs more).
struct PackedKeys: Sendable {
    private static let empty = UInt64.max
    private var slots = [UInt64](repeating: empty, count: 64)
    private var ids = [Int32](repeating: 0, count: 64)
    private var count = 0

    /// Kind (5 bits), name number (16 bits) and number (43 bits, biased) in one word, when they
    /// fit: every kind, a name among the first 65,535, a number within ±2⁴² (every day number and
    /// packed window number a build makes). The empty slot's mark (all ones) is no kind's word.
    static func pack(_ key: TimeKey, name: Int) -> UInt64? {
        let bias: Int64 = 1 << 42
        guard key.kind.rawValue < 31, name < 1 << 16, key.number >= -bias, key.number < bias else { return nil }
        return UInt64(key.kind.rawValue) << 59 | UInt64(name) << 43 | UInt64(key.number + bias)
    }

    /// The number of `word`, or `next` (then recorded) when it has none yet.
    mutating func number(of word: UInt64, else next: Int32) -> Int32 {
        var i = slot(word)
        while slots[i] != Self.empty {
            if slots[i] == word { return ids[i] }
            i = (i + 1) & (slots.count - 1)
        }
        slots[i] = word
        ids[i] = next
        count += 1
        if count * 2 > slots.count { grow() }
        return next
    }

    private func slot(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    private mutating func grow() {
        let old = zip(slots, ids).filter { $0.0 != Self.empty }
        slots = [UInt64](repeating: Self.empty, count: slots.count * 2)
        ids = [Int32](repeating: 0, count: slots.count)
        for (word, id) in old {
            var i = slot(word)
            while slots[i] != Self.empty { i = (i + 1) & (slots.count - 1) }
            slots[i] = word
            ids[i] = id
        }
    }
}
