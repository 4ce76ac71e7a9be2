import Testing
import TestKit
import SubscriptionDomain
@testable import Projections

/// The entries of the new list matched by the old are kept as bits for the first 64 and in a
/// list beyond: a user with more currencies than that still gives only what changed.
extension TimeContributionDifferences {
    @Test func aUserWithMoreThanSixtyFourCurrenciesGivesOnlyTheEntriesThatChanged() throws {
        let seed: UInt64 = 64
        var rng = SplitMix64(seed: seed)
        var old = TimeContribution()
        old.gross = (0..<80).map { UserBooks.Amount(currency: "X\($0)", money: Money(micros: 1_000_000)) }
        old.refunded = (0..<80).map { UserBooks.Amount(currency: "Y\($0)", money: Money(micros: 2_000_000)) }
        var new = old
        // The new lists in another order (seeded), one currency past the 64th of each raised.
        for i in stride(from: new.gross.count - 1, to: 0, by: -1) {
            new.gross.swapAt(i, Int(rng.next() % UInt64(i + 1)))
            new.refunded.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        let raised = try #require(new.gross.indices.last { $0 >= 64 })
        new.gross[raised].money = Money(micros: 3_000_000)
        let refunded = try #require(new.refunded.indices.last { $0 >= 64 })
        new.refunded[refunded].money = Money(micros: 5_000_000)
        let terms = Self.terms(old, new).map { "\($0.0.kind) \($0.0.name) \($0.0.number) \($0.1)" }.sorted()
        let expected = ["gross \(new.gross[raised].currency) 0 2000000", "refunded \(new.refunded[refunded].currency) 0 3000000"].sorted()
        #expect(terms == expected, "seed \(seed): \(terms)")
    }
}
