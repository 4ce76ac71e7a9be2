import Projections
import EventStore
import SubscriptionDomain
import Platform

/// Gathers the differences users' walks give (`UserSteps`), grouped by key a batch at a time,
/// then sorts each key's by time and sums them into a `TimeIndex`. The builders of parallel
/// partitions are finished together (`finish(_:fingerprint:position:hash:)`).
struct TimeIndexBuilder: Sendable {
    /// One difference of a key.
    struct Change: Sendable {
        var time: Int64
        var delta: Int64
    }

    /// A difference given, before it is grouped with its key's.
    private struct Entry: Sendable {
        var key: Int32
        var change: Change
    }

    /// How many differences are taken before they are grouped by key (3 MiB, and 2 MiB grouped):
    /// each key's run is appended in one go, and the larger the batch, the fewer runs per
    /// difference (a quarter of this size measured 5 % slower).
    private static let batchSize = 1 << 17

    private(set) var keys: [TimeKey] = []
    /// Each key's differences (by key number), in the order given, but for those of the batch.
    private var changes: [ChangeChunks] = []
    /// The differences given since the last grouping (`group()`).
    private var batch: [Entry] = []
    /// The last batch grouped by key (packed), where each key's run ended in it and how many
    /// differences it held (kept from batch to batch).
    private var grouped: [UInt64] = []
    private var runStarts: [Int] = []
    private var runCounts: [Int] = []
    /// Key numbers by kind, name and number packed in one word (`PackedKeys`); keys that do not
    /// pack (a name past the 65,535th, a number past ±2⁴²) by the whole key.
    private var packed = PackedKeys()
    private var others: [TimeKey: Int32] = [:]
    /// Key numbers of the keys without a name whose number is 0…63, at kind × 64 + number (−1:
    /// none yet): the metric counts, stocks and notification entries, about a third of the
    /// differences, found without packing and hashing.
    private var small = [Int32](repeating: -1, count: Self.smallKinds << 6)
    private static let smallKinds = 32
    /// The names of keys so far (0: no name), the first ones in a list (a user's currencies and
    /// paywall contexts, a few: compared in turn, not hashed), and the last one looked up.
    private var names: [String: Int] = ["": 0]
    private var firstNames: [String] = [""]
    private var lastName = (name: "", number: 0)
    /// The kinds of money keys (`TimeKey.isMoney`), as bits by raw value (held by each builder:
    /// a static one is checked for being set up at each difference).
    private let moneyKinds = TimeKey.Kind.allCases.reduce(UInt64(0)) { TimeKey(kind: $1).isMoney ? $0 | 1 << $1.rawValue : $0 }
    /// The earliest event time walked.
    var firstEvent: Timestamp?
    /// The sum of the magnitudes of every amount of money given (saturating): while it is within
    /// Int64, no sum of money over users at any instant can saturate, in any order of summing.
    private(set) var moneyMagnitude: Int64 = 0

    init() {}

    /// The number of differences held.
    var count: Int { changes.reduce(batch.count) { $0 + $1.count } }

    mutating func add(_ key: TimeKey, _ time: Timestamp, _ delta: Int64) {
        guard delta != 0 else { return }
        let kind = key.kind.rawValue
        let id = number(of: key, kind: kind)
        if moneyKinds & 1 << kind != 0 { moneyMagnitude = moneyMagnitude.addingSaturated(delta == .min ? .max : abs(delta)) }
        batch.append(Entry(key: id, change: Change(time: time.nanoseconds, delta: delta)))
        if batch.count >= Self.batchSize { group() }
    }

    /// Appends the batch's differences to their keys' (a counting pass by key, then one run per
    /// key), packed (`ChangeChunks`).
    private mutating func group() {
        guard !batch.isEmpty else { return }
        // The buffers of the last batch, taken over (reused: a fresh half-megabyte buffer per batch
        // would be fresh pages to fault in every time).
        var starts = runStarts, grouped = self.grouped, given = runCounts
        (runStarts, self.grouped, runCounts) = ([], [], [])
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: keys.count + 1))
        given.removeAll(keepingCapacity: true)
        given.append(contentsOf: repeatElement(0, count: keys.count))
        for e in batch {
            starts[Int(e.key) + 1] += ChangeChunks.words(e.change)
            given[Int(e.key)] += 1
        }
        for k in 0..<keys.count { starts[k + 1] += starts[k] }
        grouped.removeAll(keepingCapacity: true)
        grouped.append(contentsOf: repeatElement(0, count: starts[keys.count]))
        grouped.withUnsafeMutableBufferPointer { out in
            // (Each key's run filled from its start on; the starts are moved back after.)
            for e in batch {
                let k = Int(e.key)
                starts[k] = ChangeChunks.write(e.change, into: out, at: starts[k])
            }
        }
        // (Each run copied from the buffer as it is: a slice of the array per run was retained and let go.)
        grouped.withUnsafeBufferPointer { runs in
            var start = 0
            for k in 0..<keys.count where starts[k] > start {
                changes[k].append(UnsafeBufferPointer(rebasing: runs[start..<starts[k]]), holding: given[k])
                start = starts[k]
            }
        }
        batch.removeAll(keepingCapacity: true)
        (runStarts, self.grouped, runCounts) = (starts, grouped, given)
    }

    /// The key's number in this builder (a new one when it is new).
    private mutating func number(of key: TimeKey) -> Int32 { number(of: key, kind: key.kind.rawValue) }

    /// The same with the key's kind's raw value `kind`.
    private mutating func number(of key: TimeKey, kind: UInt8) -> Int32 {
        let next = Int32(keys.count)
        let id: Int32
        if Int(kind) < Self.smallKinds, UInt64(bitPattern: key.number) < 64, key.name.isEmpty {
            let slot = Int(kind) << 6 | Int(key.number)
            if small[slot] >= 0 { return small[slot] }
            small[slot] = next
            id = next
        } else if let word = PackedKeys.pack(key, name: nameNumber(key.name)) {
            id = packed.number(of: word, else: next)
        } else if let known = others[key] {
            id = known
        } else {
            others[key] = next
            id = next
        }
        if id == next {
            keys.append(key)
            changes.append(ChangeChunks())
        }
        return id
    }

    /// The number of a key's name (0: none), numbered as first seen.
    private mutating func nameNumber(_ name: String) -> Int {
        if name.isEmpty { return 0 }
        if name == lastName.name { return lastName.number }
        let n: Int
        if let first = firstNames.firstIndex(of: name) { n = first } else if let known = names[name] { n = known } else {
            n = names.count
            names[name] = n
            if firstNames.count < 16 { firstNames.append(name) }
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
    /// numbered once and put in order, each key's differences taken over from every part, and the
    /// keys in two halves of about as many differences each, sorted by time and summed on two cores
    /// (each key's gathered, then let go, one at a time).
    static func steps(of parts: inout [TimeIndexBuilder]) -> TimeSteps {
        var all = TimeIndexBuilder()
        var ranks: [[Int]] = []
        for p in parts { ranks.append(p.keys.map { Int(all.number(of: $0)) }) }
        let keys = all.keys
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var rank = [Int](repeating: 0, count: keys.count)
        for (r, k) in order.enumerated() { rank[k] = r }
        // Each key's differences from every part, keys in order.
        var lists = [[ChangeChunks]](repeating: [], count: keys.count)
        var counts = [Int](repeating: 0, count: keys.count)
        for p in parts.indices {
            parts[p].group()
            var taken = parts[p].changes
            parts[p] = TimeIndexBuilder()
            for i in taken.indices {
                let r = rank[ranks[p][i]]
                counts[r] += taken[i].count
                lists[r].append(taken[i])
                taken[i] = ChangeChunks()
            }
        }
        // The first key of the second half: the one holding the middle difference.
        let total = counts.reduce(0, +)
        var split = 0, before = 0
        while split < keys.count, before + counts[split] <= total / 2 { before += counts[split]; split += 1 }
        var first = Array(lists[0..<split]), second = Array(lists[split...])
        lists = []
        let sortedKeys = order.map { keys[$0] }
        // (The first half's arrays have room for every step, so that the second's are appended in place.)
        let (a, b) = Parallel.both(
            { Self.summed(&first, keys: sortedKeys[0..<split], count: total) },
            { Self.summed(&second, keys: sortedKeys[split...], count: total - before) })
        return TimeSteps.concatenated(a, b)
    }

    /// The steps of `keys`, whose differences are `lists` (key by key, emptied here), in arrays with
    /// room for `count` steps (no fewer than the differences).
    private static func summed(_ lists: inout [[ChangeChunks]], keys: ArraySlice<TimeKey>, count: Int) -> TimeSteps {
        var steps = TimeSteps()
        steps.times.reserveCapacity(count)
        steps.sums.reserveCapacity(count)
        // Room for the key of most differences from the start (grown as it went, the buffer was
        // fresh pages again at each doubling).
        var gathered: [Change] = []
        gathered.reserveCapacity(lists.reduce(0) { most, list in max(most, list.reduce(0) { $0 + $1.count }) })
        for (i, key) in zip(lists.indices, keys) {
            gathered.removeAll(keepingCapacity: true)
            gatherSorted(lists[i], into: &gathered)
            lists[i] = []
            // One step per distinct instant whose changes, summed, move the key's sum.
            var sum: Int64 = 0, kept: Int64 = 0
            gathered.withUnsafeBufferPointer { g in
                var next = 0
                while next < g.count {
                    let t = g[next].time
                    repeat {
                        sum &+= g[next].delta
                        next += 1
                    } while next < g.count && g[next].time == t
                    if sum != kept {
                        steps.times.append(t)
                        steps.sums.append(sum)
                        kept = sum
                    }
                }
            }
            steps.closeKey(key)
        }
        return steps
    }

    /// Appends the differences of `parts` to `out` (empty) sorted by time. Many are first spread
    /// by the top bits of their time's distance from the earliest into buckets, one per four to
    /// eight differences (a counting pass and a scatter, straight from the chunks), and each
    /// bucket is then sorted on its own: by insertion when it holds a few (as most do), in place
    /// and within the cache. A key of more differences than the cache holds is spread into at most
    /// 2¹⁰ buckets first (as many write streams as the cache keeps going), and each of those is
    /// spread again on its own, within the cache (`spreadAndSort`): spread straight into a
    /// bucket per four to eight, nearly every write missed the cache. Equal times may come in any
    /// order: a step sums them all.
    static func gatherSorted(_ parts: [ChangeChunks], into out: inout [Change]) {
        let total = parts.reduce(0) { $0 + $1.count }
        guard total > insertionLimit else {
            for part in parts { part.forEach { out.append($0) } }
            out.withUnsafeMutableBufferPointer { insertionSort($0, 0..<total) }
            return
        }
        var earliest = Int64.max, latest = Int64.min
        for part in parts {
            part.forEach { c in earliest = min(earliest, c.time); latest = max(latest, c.time) }
        }
        // (The distance of two Int64 fits in a UInt64.)
        let span = UInt64(bitPattern: latest) &- UInt64(bitPattern: earliest)
        let twoLevels = total > twoLevelLimit
        let bucketBits = twoLevels ? firstLevelBits : bucketBits(for: total)
        let buckets = 1 << bucketBits
        let shift = shift(span, bucketBits)
        func bucket(_ t: Int64) -> Int { Int((UInt64(bitPattern: t) &- UInt64(bitPattern: earliest)) >> shift) }
        var starts = [Int](repeating: 0, count: buckets + 1)
        for part in parts { part.forEach { c in starts[bucket(c.time) + 1] += 1 } }
        for b in 0..<buckets { starts[b + 1] += starts[b] }
        var next = starts
        out.append(contentsOf: repeatElement(Change(time: 0, delta: 0), count: total))
        // The second level's room: the largest first-level bucket, and its buckets' starts.
        var scratch = [Change](repeating: Change(time: 0, delta: 0),
                               count: twoLevels ? (0..<buckets).reduce(0) { max($0, starts[$1 + 1] - starts[$1]) } : 0)
        var secondStarts: [Int] = []
        out.withUnsafeMutableBufferPointer { buffer in
            for part in parts {
                part.forEach { c in
                    let b = bucket(c.time)
                    buffer[next[b]] = c
                    next[b] += 1
                }
            }
            scratch.withUnsafeMutableBufferPointer { scratch in
                for b in 0..<buckets where starts[b + 1] - starts[b] > 1 {
                    let range = starts[b]..<starts[b + 1]
                    if range.count <= insertionLimit {
                        insertionSort(buffer, range)
                    } else if twoLevels {
                        spreadAndSort(buffer, range, scratch: scratch, starts: &secondStarts)
                    } else {
                        buffer[range].sort { $0.time < $1.time }
                    }
                }
            }
        }
    }

    /// Sorts `range` of `buffer` by time within the cache: spread into `scratch` by the top bits of
    /// each time's distance from the range's earliest, a bucket per four to eight differences,
    /// each bucket sorted there (by insertion when it holds a few), and copied back. `starts` is
    /// room for the buckets' starts, kept from one range to the next.
    private static func spreadAndSort(_ buffer: UnsafeMutableBufferPointer<Change>, _ range: Range<Int>,
                                      scratch: UnsafeMutableBufferPointer<Change>, starts: inout [Int]) {
        var earliest = Int64.max, latest = Int64.min
        for i in range { earliest = min(earliest, buffer[i].time); latest = max(latest, buffer[i].time) }
        let bucketBits = bucketBits(for: range.count)
        let buckets = 1 << bucketBits
        let shift = shift(UInt64(bitPattern: latest) &- UInt64(bitPattern: earliest), bucketBits)
        func bucket(_ t: Int64) -> Int { Int((UInt64(bitPattern: t) &- UInt64(bitPattern: earliest)) >> shift) }
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: buckets))
        for i in range { starts[bucket(buffer[i].time)] += 1 }
        var sum = 0
        for b in 0..<buckets { (starts[b], sum) = (sum, sum + starts[b]) }
        // (Each bucket's start moves to its end as it is filled: bucket b is then from the end of b − 1.)
        for i in range {
            let b = bucket(buffer[i].time)
            scratch[starts[b]] = buffer[i]
            starts[b] += 1
        }
        var low = 0
        for b in 0..<buckets {
            let high = starts[b]
            if high - low > insertionLimit {
                scratch[low..<high].sort { $0.time < $1.time }
            } else if high - low > 1 {
                insertionSort(scratch, low..<high)
            }
            low = high
        }
        (buffer.baseAddress! + range.lowerBound).update(from: scratch.baseAddress!, count: range.count)
    }

    /// The number of bits of `gatherSorted`'s buckets for `count` differences: a bucket per four to eight.
    private static func bucketBits(for count: Int) -> Int {
        min(maximumBucketBits, max(minimumBucketBits, (Int.bitWidth - count.leadingZeroBitCount) - 3))
    }

    /// How far a distance within `span` is shifted down to its bucket among 2^`bits`.
    private static func shift(_ span: UInt64, _ bits: Int) -> UInt64 {
        UInt64(max(0, (UInt64.bitWidth - span.leadingZeroBitCount) - bits))
    }

    /// Sorts `range` of `buffer` by time, moving each difference back past the later ones before it.
    private static func insertionSort(_ buffer: UnsafeMutableBufferPointer<Change>, _ range: Range<Int>) {
        for i in range.dropFirst() {
            let c = buffer[i]
            var j = i
            while j > range.lowerBound, buffer[j - 1].time > c.time {
                buffer[j] = buffer[j - 1]
                j -= 1
            }
            buffer[j] = c
        }
    }

    /// Buckets of `gatherSorted`: 2³ to 2²⁰ (two arrays of starts of at most 8 MiB each), and the most
    /// differences sorted by insertion (a bucket past it, from times bunched by an outlier far
    /// from the rest, is sorted by the standard library).
    private static let minimumBucketBits = 3, maximumBucketBits = 20
    private static let insertionLimit = 32
    /// Past this many differences (half a megabyte), a key is sorted in two levels of buckets, the
    /// first of 2¹⁰.
    static let twoLevelLimit = 1 << 15
    private static let firstLevelBits = 10

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
