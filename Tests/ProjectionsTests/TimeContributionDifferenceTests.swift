import Testing
import SubscriptionDomain
@testable import Projections

/// A contribution's difference to the next one: one net term per key that changed, except a sum
/// of money whose change does not fit in Int64, which is given as its two terms (the old sum out,
/// the new one in) so the index's money magnitude counts both.
@Suite struct TimeContributionDifferences {
    static func terms(_ old: TimeContribution, _ new: TimeContribution) -> [(TimeKey, Int64)] {
        var out: [(TimeKey, Int64)] = []
        old.difference(to: new) { out.append(($0, $1)) }
        return out
    }

    @Test func aChangeOfGrossPastInt64IsGivenAsTheOldSumOutAndTheNewSumIn() {
        var old = TimeContribution(), new = TimeContribution()
        old.gross = [.init(currency: "USD", money: Money(micros: -9_000_000_000_000_000_000))]
        new.gross = [.init(currency: "USD", money: Money(micros: 9_000_000_000_000_000_000))]
        let sums = Self.terms(old, new).filter { $0.0 == TimeKey(kind: .gross, name: "USD") }.map(\.1)
        #expect(sums == [9_000_000_000_000_000_000, 9_000_000_000_000_000_000], "\(sums)")
        let holders = Self.terms(old, new).filter { $0.0 == TimeKey(kind: .grossHolders, name: "USD") }.map(\.1)
        #expect(holders == [-1, 1], "\(holders)")
    }

    @Test func aChangeOfGrossWithinInt64IsOneNetTermAndTheHoldersStay() {
        var old = TimeContribution(), new = TimeContribution()
        old.gross = [.init(currency: "USD", money: Money(micros: 9_990_000))]
        new.gross = [.init(currency: "EUR", money: Money(micros: 4_500_000)), .init(currency: "USD", money: Money(micros: 19_980_000))]
        let terms = Self.terms(old, new).map { "\($0.0.kind) \($0.0.name) \($0.1)" }
        #expect(terms == ["gross USD 9990000", "gross EUR 4500000", "grossHolders EUR 1"], "\(terms)")
    }
}
