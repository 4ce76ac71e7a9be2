import Testing
import TestKit
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The builder numbers keys without a name and with a number 0…63 in a table by kind and number,
/// others through one packed word while their name is among the first 65,535 it has seen (the
/// first 16 compared in turn, the rest hashed), and by the whole key past that: whichever way a key
/// is numbered, it keeps its own sum and never takes another key's.
@Suite struct TimeIndexBuilderKeys {
    @Test func contextsPastTheSixtyFiveThousandFiveHundredThirtyFifthNameKeepTheirOwnSums() {
        var builder = TimeIndexBuilder()
        let names = 65_540
        // A key without a name, of the kind next to the contexts'.
        builder.add(TimeKey(kind: .trialStarted), Timestamp(nanoseconds: 1), 7)
        for i in 0..<names {
            builder.add(TimeKey(kind: .context, number: 0, name: "paywall-\(i)"), Timestamp(nanoseconds: Int64(i) + 2), Int64(i) + 1)
        }
        let steps = builder.finishSteps()
        var sums: [TimeKey: Int64] = [:]
        steps.forEachDelta { key, _, delta in sums[key, default: 0] &+= delta }
        #expect(sums.count == names + 1)
        #expect(sums[TimeKey(kind: .trialStarted)] == 7)
        let wrong = (0..<names).filter { sums[TimeKey(kind: .context, number: 0, name: "paywall-\($0)")] != Int64($0) + 1 }
        #expect(wrong.isEmpty, "contexts with another sum: \(wrong.prefix(5))")
    }

    @Test func keysOnEitherSideOfTheSmallNumbersAndOfTheFirstNamesKeepTheirOwnSteps() {
        let seed: UInt64 = 0x5EED_0063
        print("keysOnEitherSideOfTheSmallNumbersAndOfTheFirstNamesKeepTheirOwnSteps: seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let numbers: [Int64] = [0, 1, 62, 63, 64, 65, -1, -64, 1 << 42 - 1, 1 << 42, -(1 << 42) - 1, .max, .min]
        // Past the 16 names compared in turn, and the empty name among them.
        let names = [""] + (0..<20).map { "name-\($0)" }
        var given: [(TimeKey, Int64, Int64)] = []
        var magnitude: Int64 = 0
        var builder = TimeIndexBuilder()
        for _ in 0..<20_000 {
            let kind = TimeKey.Kind.allCases[Int(rng.next() % UInt64(TimeKey.Kind.allCases.count))]
            let key = TimeKey(kind: kind, number: numbers[Int(rng.next() % UInt64(numbers.count))],
                              name: names[Int(rng.next() % UInt64(names.count))])
            let time = Int64(rng.next() % 200) * 1_000_000_000
            let delta = Int64(rng.next() % 9) - 4
            if key.isMoney { magnitude += abs(delta) }
            given.append((key, time, delta))
            builder.add(key, Timestamp(nanoseconds: time), delta)
        }
        #expect(builder.moneyMagnitude == magnitude)
        let steps = TimeIndexBuilderGrouping.stepsByKey(builder.finishSteps())
        #expect(TimeIndexBuilderGrouping.same(steps, TimeIndexBuilderGrouping.reference(given)))
    }
}
