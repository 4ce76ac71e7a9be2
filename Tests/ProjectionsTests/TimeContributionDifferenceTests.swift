import Testing
import SubscriptionDomain
import Population
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

    /// What a walk does at each instant: the contribution brought up in place (`update(to:…)`)
    /// gives the terms of the difference to the one built anew, and becomes it. Every user of a
    /// generated population (seeded), sampled after each event and at a day and a month after it.
    @Test func aContributionBroughtUpInPlaceGivesTheTermsOfTheDifferenceToTheOneBuiltAnew() {
        let seed: UInt64 = 23
        let decider = PlanDecider(profile: .handz)
        let options = ReplayOptions(profile: .handz, asOf: Timestamp(nanoseconds: .max))
        var byUser: [String: [Event]] = [:]
        for e in PopulationGenerator(profile: .handz, users: 400, seed: seed).events() { byUser[e.user, default: []].append(e) }
        var changed = 0
        for (user, events) in byUser {
            var fold = UserFold(user: user)
            var kept = TimeContribution()
            for e in events.sorted(by: { $0.time < $1.time }) {
                fold.apply(e, decider, options)
                for t in [e.time, e.time + .days(1), e.time + .days(31)] {
                    let anew = TimeContribution(fold, state: fold.state, decider: decider, at: t)
                    var expected: [String] = [], given: [String] = []
                    kept.difference(to: anew) { expected.append("\($0) \($1)") }
                    kept.update(to: fold, state: fold.state, decider: decider, at: t) { given.append("\($0) \($1)") }
                    #expect(given == expected, "seed \(seed), \(user) at \(t)")
                    #expect(kept == anew, "seed \(seed), \(user) at \(t)")
                    if !given.isEmpty { changed += 1 }
                }
            }
        }
        #expect(changed > 1_000, "seed \(seed): the walk changed contributions \(changed) times")
    }
}
