import Testing
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The builder numbers keys through one packed word while their name is among the first 65,535
/// it has seen, and by the whole key past that: a key past the packed names keeps its own sum and
/// never takes another key's.
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
}
