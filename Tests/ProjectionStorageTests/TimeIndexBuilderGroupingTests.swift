import Testing
import TestKit
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The builder groups differences by key a batch at a time into chunks that double up to 65,536
/// differences; whatever the batches, chunks and partitions, each key's steps are the running sums
/// of its differences in time order, as a plain sort of every difference gives them.
@Suite struct TimeIndexBuilderGrouping {
    /// The steps a plain reference gives: every key's differences summed per instant, in time order,
    /// instants whose sum stays the same left out.
    static func reference(_ given: [(TimeKey, Int64, Int64)]) -> [TimeKey: [(time: Int64, sum: Int64)]] {
        var byKey: [TimeKey: [Int64: Int64]] = [:]
        for (key, time, delta) in given { byKey[key, default: [:]][time, default: 0] &+= delta }
        var out: [TimeKey: [(time: Int64, sum: Int64)]] = [:]
        for (key, deltas) in byKey {
            var sum: Int64 = 0
            var steps: [(time: Int64, sum: Int64)] = []
            for t in deltas.keys.sorted() {
                let next = sum &+ deltas[t]!
                if next != sum { steps.append((t, next)) }
                sum = next
            }
            if !steps.isEmpty { out[key] = steps }
        }
        return out
    }

    static func stepsByKey(_ steps: TimeSteps) -> [TimeKey: [(time: Int64, sum: Int64)]] {
        var out: [TimeKey: [(time: Int64, sum: Int64)]] = [:]
        for k in steps.keys.indices {
            out[steps.keys[k]] = (steps.starts[k]..<steps.starts[k + 1]).map { (steps.times[$0], steps.sums[$0]) }
        }
        return out
    }

    static func same(_ a: [TimeKey: [(time: Int64, sum: Int64)]], _ b: [TimeKey: [(time: Int64, sum: Int64)]]) -> Bool {
        a.count == b.count && a.allSatisfy { key, steps in
            guard let other = b[key], other.count == steps.count else { return false }
            return zip(steps, other).allSatisfy { $0.time == $1.time && $0.sum == $1.sum }
        }
    }

    /// Random differences: one key given far more than a chunk holds, the others interleaved with it,
    /// instants repeated so that some cancel out.
    static func randomDifferences(seed: UInt64, count: Int) -> [(TimeKey, Int64, Int64)] {
        var rng = SplitMix64(seed: seed)
        var out: [(TimeKey, Int64, Int64)] = []
        for _ in 0..<count {
            let r = rng.next()
            let key = r % 3 == 0 ? TimeKey(kind: .metric, number: 1)
                : TimeKey(kind: .context, number: Int64(r % 5), name: "paywall-\(r >> 8 % 700)")
            let time = Int64(rng.next() % 5_000) * 1_000_000_000
            let delta = Int64(rng.next() % 7) - 3
            out.append((key, time, delta))
        }
        return out
    }

    @Test func oneBuilderGivesEachKeysRunningSumsInTimeOrderAcrossBatchesAndChunks() {
        let seed: UInt64 = 0x6A0C_4B17
        let given = Self.randomDifferences(seed: seed, count: 300_000)
        var builder = TimeIndexBuilder()
        for (key, time, delta) in given { builder.add(key, Timestamp(nanoseconds: time), delta) }
        #expect(builder.count == given.filter { $0.2 != 0 }.count, "seed \(seed)")
        #expect(Self.same(Self.stepsByKey(builder.finishSteps()), Self.reference(given)), "seed \(seed)")
    }

    @Test func partitionsFinishedTogetherGiveWhatOneBuilderGives() {
        let seed: UInt64 = 0x51DE_F00D
        let given = Self.randomDifferences(seed: seed, count: 120_000)
        var rng = SplitMix64(seed: seed ^ 1)
        var parts = [TimeIndexBuilder](repeating: TimeIndexBuilder(), count: 3)
        for (key, time, delta) in given { parts[Int(rng.next() % 3)].add(key, Timestamp(nanoseconds: time), delta) }
        let steps = TimeIndexBuilder.steps(of: &parts)
        #expect(parts.allSatisfy { $0.count == 0 }, "the parts are emptied")
        #expect(steps.keys == steps.keys.sorted(), "keys in order")
        #expect(Self.same(Self.stepsByKey(steps), Self.reference(given)), "seed \(seed)")
    }

    @Test func partitionsWhoseTimesDoNotOverlapAreSortedOverTheRangeOfThemAll() {
        // One key given many times more than a plain sort takes, each partition its own stretch
        // of time (the last the earliest): the buckets span the earliest to the latest of every part.
        let seed: UInt64 = 0x5_7E7C_4E5
        var rng = SplitMix64(seed: seed)
        var given: [(TimeKey, Int64, Int64)] = []
        var parts = [TimeIndexBuilder](repeating: TimeIndexBuilder(), count: 3)
        for p in parts.indices {
            let start = Int64(2 - p) * 1_000_000_000_000
            for _ in 0..<12_000 {
                let d = (TimeKey(kind: .metric, number: 3), start + Int64(rng.next() % 900_000_000_000), Int64(rng.next() % 5) - 2)
                given.append(d)
                parts[p].add(d.0, Timestamp(nanoseconds: d.1), d.2)
            }
        }
        #expect(Self.same(Self.stepsByKey(TimeIndexBuilder.steps(of: &parts)), Self.reference(given)), "seed \(seed)")
    }

    @Test func aKeyWithTimesAcrossTheWholeRangeOfInstantsIsSortedAsAPlainSortSortsIt() {
        let seed: UInt64 = 0x0DD_71E5
        var rng = SplitMix64(seed: seed)
        var given: [(TimeKey, Int64, Int64)] = []
        let ends: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        for i in 0..<40_000 {
            // Mostly spread over the whole range, some at its ends, some clustered near zero.
            let time = i % 5 == 0 ? ends[Int(rng.next() % UInt64(ends.count))]
                : i % 5 == 1 ? Int64(rng.next() % 1_000) - 500 : Int64(bitPattern: rng.next())
            given.append((TimeKey(kind: .metric, number: 2), time, Int64(rng.next() % 5) - 2))
        }
        var builder = TimeIndexBuilder()
        for (key, time, delta) in given { builder.add(key, Timestamp(nanoseconds: time), delta) }
        #expect(Self.same(Self.stepsByKey(builder.finishSteps()), Self.reference(given)), "seed \(seed)")
    }

    @Test func keysOfEverySizeAroundTheInsertionSortsLimitAreSummedAsAPlainSortSumsThem() {
        // Key n is given n differences (1…300: sorted by insertion whole, or spread over 8 to 64
        // buckets each sorted by insertion or, bunched, by the standard library), its times either
        // spread over a day, bunched in a few seconds with one outlier at an end of the range, or
        // given in descending order.
        let seed: UInt64 = 0xB0C_4E75
        var rng = SplitMix64(seed: seed)
        var given: [(TimeKey, Int64, Int64)] = []
        for n in 1...300 {
            let key = TimeKey(kind: .cohortStarted, number: Int64(n))
            for i in 0..<n {
                let time: Int64
                switch n % 3 {
                case 0: time = Int64(rng.next() % 86_400) * 1_000_000_000
                case 1: time = i == n / 2 ? (n % 2 == 0 ? .max : .min) : Int64(rng.next() % 3_000_000_000)
                default: time = Int64(n - i) * 1_000_000_000
                }
                given.append((key, time, Int64(rng.next() % 5) - 2))
            }
        }
        var builder = TimeIndexBuilder()
        for (key, time, delta) in given { builder.add(key, Timestamp(nanoseconds: time), delta) }
        #expect(Self.same(Self.stepsByKey(builder.finishSteps()), Self.reference(given)), "seed \(seed)")
    }

    @Test func keysAroundTheTwoLevelLimitAreSummedAsAPlainSortSumsThemHoweverTheirTimesFall() {
        // Keys of one difference fewer or more than the limit past which a key is sorted in two
        // levels, and of three times it; their times spread over a day, bunched in a few seconds
        // with one outlier at each end of the range (one first-level bucket holding nearly all),
        // all at one instant (one bucket at each level), or given in descending order.
        let seed: UInt64 = 0x2_1E7E_15
        var rng = SplitMix64(seed: seed)
        var given: [(TimeKey, Int64, Int64)] = []
        let limit = TimeIndexBuilder.twoLevelLimit
        for (k, n) in [limit - 1, limit, limit + 1, 3 * limit].enumerated() {
            for shape in 0..<4 {
                let key = TimeKey(kind: .cohortStarted, number: Int64(k * 4 + shape))
                for i in 0..<n {
                    let time: Int64
                    switch shape {
                    case 0: time = Int64(rng.next() % 86_400_000_000_000)
                    case 1: time = i == 7 ? .max : i == n - 7 ? .min : Int64(rng.next() % 3_000_000_000)
                    case 2: time = 1_700_000_000_000_000_000
                    default: time = Int64(n - i) * 1_000_000
                    }
                    given.append((key, time, Int64(rng.next() % 5) - 2))
                }
            }
        }
        var builder = TimeIndexBuilder()
        for (key, time, delta) in given { builder.add(key, Timestamp(nanoseconds: time), delta) }
        #expect(Self.same(Self.stepsByKey(builder.finishSteps()), Self.reference(given)), "seed \(seed)")
    }

    @Test func aKeyGivenAFewDifferencesInEachOfManyBatchesIsCountedOnceForEachAndSummedAsAPlainSortSumsThem() {
        // Two whole batches (2¹⁷ differences each) and a part: one key takes nearly all, and 20 keys
        // one difference every 4,000 (each in every batch, a few in all: sorted by insertion whole).
        // Each batch's grouping counts that batch's differences only, none of the batch before.
        let seed: UInt64 = 0xBA7C_4E5
        var rng = SplitMix64(seed: seed)
        var given: [(TimeKey, Int64, Int64)] = []
        var builder = TimeIndexBuilder()
        for i in 0..<(2 * (1 << 17) + 3_000) {
            let key = i % 4_000 == 0 ? TimeKey(kind: .cohortStarted, number: Int64(i / 4_000 % 20)) : TimeKey(kind: .metric, number: 1)
            let time = Int64(rng.next() % 2_000) * 1_000_000_000
            let r = rng.next() % 8
            let delta: Int64 = r < 3 ? 1 : r < 6 ? -1 : r == 6 ? 2 : -3
            given.append((key, time, delta))
            builder.add(key, Timestamp(nanoseconds: time), delta)
        }
        #expect(builder.count == given.count, "seed \(seed)")
        #expect(Self.same(Self.stepsByKey(builder.finishSteps()), Self.reference(given)), "seed \(seed)")
    }
}

/// A key's differences are held packed in chunks of words that double up to 65,536: a chunk, once
/// filled, is never copied to grow, only the last is part empty, and every difference reads back.
@Suite struct ChangeChunkSizes {
    /// Appends `run` as the builder's grouping does (packed, then the words in one go).
    static func append(_ run: [TimeIndexBuilder.Change], to chunks: inout ChangeChunks) {
        var words = [UInt64](repeating: 0, count: run.reduce(0) { $0 + ChangeChunks.words($1) })
        words.withUnsafeMutableBufferPointer { out in
            var at = 0
            for c in run { at = ChangeChunks.write(c, into: out, at: at) }
            #expect(at == out.count)
        }
        words.withUnsafeBufferPointer { chunks.append($0, holding: run.count) }
    }

    @Test func chunksDoubleUpToSixtyFiveThousandFiveHundredThirtySixAndOnlyTheLastIsPartEmpty() {
        let seed: UInt64 = 0xC4_0C5
        var rng = SplitMix64(seed: seed)
        var chunks = ChangeChunks()
        var given: [TimeIndexBuilder.Change] = []
        while given.count < 400_000 {
            // Runs of any length, as a batch's grouping appends them (some past a whole chunk); times
            // near now (one word for ±1) and anywhere (three words), differences of any size.
            let run = (0..<Int(1 + rng.next() % 5_000)).map { _ in
                let time = rng.next() % 2 == 0 ? Int64(bitPattern: rng.next()) : 1_780_000_000_000_000_000 + Int64(rng.next() % 1_000_000)
                return TimeIndexBuilder.Change(time: time, delta: Int64(rng.next() % 9) - 4)
            }
            Self.append(run, to: &chunks)
            given += run
        }
        var held: [[UInt64]] = []
        chunks.forEachChunk { held.append($0) }
        #expect(chunks.count == given.count, "seed \(seed)")
        var read: [TimeIndexBuilder.Change] = []
        chunks.forEach { read.append($0) }
        #expect(read.map(\.time) == given.map(\.time) && read.map(\.delta) == given.map(\.delta), "seed \(seed): in the order given")
        #expect(held.dropLast().allSatisfy { $0.count == $0.capacity }, "seed \(seed): only the last chunk is part empty")
        // Sizes asked: 16, then twice the last, at most 65,536 (the allocator may round a size up a little).
        #expect(held.first.map { $0.capacity >= 16 && $0.capacity < 32 } == true, "seed \(seed): \(held.map(\.capacity))")
        for (previous, chunk) in zip(held, held.dropFirst()) {
            let asked = min(previous.capacity * 2, 1 << 16)
            #expect(chunk.capacity >= asked && chunk.capacity < asked + asked / 8, "seed \(seed): \(held.map(\.capacity))")
        }
        #expect(held.count > 5 && held.allSatisfy { $0.capacity < (1 << 16) + (1 << 13) }, "seed \(seed): \(held.map(\.capacity))")
    }

    /// +1 and −1 within ±2⁶¹ ns take one word; any other difference, or a time past it, three; and
    /// each reads back whole, the extremes of both too (and +1 and −1 at 0, the words 0 and 1: no
    /// one-word difference reads as the tag of three).
    @Test func aDifferenceOfOneNearNowTakesOneWordAndAnyOtherThreeEachReadBackWhole() {
        let edge: Int64 = 1 << 61
        let cases: [(TimeIndexBuilder.Change, Int)] = [
            (.init(time: 1_780_000_000_123_456_789, delta: 1), 1), (.init(time: 1_780_000_000_123_456_789, delta: -1), 1),
            (.init(time: 0, delta: 1), 1), (.init(time: 0, delta: -1), 1), (.init(time: -1, delta: -1), 1), (.init(time: -5_000_000_000, delta: 1), 1),
            (.init(time: edge - 1, delta: 1), 1), (.init(time: -edge, delta: -1), 1),
            (.init(time: edge, delta: 1), 3), (.init(time: -edge - 1, delta: -1), 3),
            (.init(time: .max, delta: 1), 3), (.init(time: .min, delta: -1), 3),
            (.init(time: 1_780_000_000_000_000_000, delta: 2), 3), (.init(time: 1_780_000_000_000_000_000, delta: -2), 3),
            (.init(time: 0, delta: 0), 3), (.init(time: 5, delta: .max), 3), (.init(time: 5, delta: .min), 3),
        ]
        for (c, words) in cases {
            #expect(ChangeChunks.words(c) == words, "\(c)")
            var chunks = ChangeChunks()
            // After 15 one-word differences, so that a three-word one straddles the first chunk (16 words) and the next.
            let filler = [TimeIndexBuilder.Change](repeating: .init(time: 7, delta: 1), count: 15)
            Self.append(filler + [c], to: &chunks)
            var read: [TimeIndexBuilder.Change] = []
            chunks.forEach { read.append($0) }
            #expect(read.count == 16 && read.last?.time == c.time && read.last?.delta == c.delta, "\(c): \(read.suffix(1))")
        }
    }
}
