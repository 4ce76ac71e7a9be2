import Testing
import TestKit
import SubscriptionDomain
@testable import Projections

/// The entries of the new list matched by the old are kept as bits for the first 64 and in a
/// list beyond: a user with more contexts or currencies than that still gives only what changed.
extension TimeContributionDifferences {
    @Test func aUserWithMoreThanSixtyFourContextsAndCurrenciesGivesOnlyTheEntriesThatChanged() throws {
        let seed: UInt64 = 64
        var rng = SplitMix64(seed: seed)
        var old = TimeContribution()
        old.contexts = (0..<80).map { FunnelProgress.ContextProgress(context: "c\($0)", reached: 1) }
        old.gross = (0..<80).map { UserBooks.Amount(currency: "X\($0)", money: Money(micros: 1_000_000)) }
        var new = old
        // The new lists in another order (seeded), one context past the 64th advanced a step and one currency's sum raised.
        for i in stride(from: new.contexts.count - 1, to: 0, by: -1) {
            new.contexts.swapAt(i, Int(rng.next() % UInt64(i + 1)))
            new.gross.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        let moved = try #require(new.contexts.indices.last { $0 >= 64 })
        new.contexts[moved].reached = 2
        let raised = try #require(new.gross.indices.last { $0 >= 64 })
        new.gross[raised].money = Money(micros: 3_000_000)
        let terms = Self.terms(old, new).map { "\($0.0.kind) \($0.0.name) \($0.0.number) \($0.1)" }.sorted()
        let context = new.contexts[moved].context, currency = new.gross[raised].currency
        // (Overall the user stays where they were: the steps beyond the contexts move back the other way.)
        let expected = ["context \(context) 1 -1", "context \(context) 2 1", "gross \(currency) 0 2000000", "reached  1 1", "reached  2 -1"].sorted()
        #expect(terms == expected, "seed \(seed): \(terms)")
    }
}
