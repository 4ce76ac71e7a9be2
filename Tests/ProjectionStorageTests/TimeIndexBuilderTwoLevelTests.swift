import Testing
import TestKit
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// A key of more differences than `TimeIndexBuilder.twoLevelLimit` is sorted in two levels of
/// buckets; a second-level bucket can still hold far more than insertion sorts (times bunched
/// within one first-level bucket by an outlier in that same bucket), and is sorted whole.
@Suite struct TimeIndexBuilderTwoLevels {
    @Test func timesBunchedInOneSecondLevelBucketAreSummedAsAPlainSortSumsThem() {
        let seed: UInt64 = 0x2_1E7E_B0C
        print("timesBunchedInOneSecondLevelBucketAreSummedAsAPlainSortSumsThem: seed \(seed)")
        var rng = SplitMix64(seed: seed)
        var given: [(TimeKey, Int64, Int64)] = []
        let key = TimeKey(kind: .cohortStarted, number: 9)
        let n = TimeIndexBuilder.twoLevelLimit + 4_000
        for i in 0..<n {
            // The ends of the range make first-level buckets of 2⁵⁴ ns; 2⁵⁰ ns shares the bucket of
            // the bunch (its distinct times, in random order, within a millisecond), so that the
            // second level's buckets are each 2⁴⁰ ns or so wide and one holds the whole bunch.
            let time: Int64 = i == 3 ? .min : i == 5 ? .max : i == 7 ? 1 << 50 : Int64(rng.next() % 1_000_000)
            given.append((key, time, Int64(rng.next() % 3) + 1))
        }
        var builder = TimeIndexBuilder()
        for (key, time, delta) in given { builder.add(key, Timestamp(nanoseconds: time), delta) }
        #expect(TimeIndexBuilderGrouping.same(TimeIndexBuilderGrouping.stepsByKey(builder.finishSteps()),
                                              TimeIndexBuilderGrouping.reference(given)), "seed \(seed)")
    }
}
