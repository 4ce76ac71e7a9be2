import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// A sale whose store reports its takehome share (RevenueCat's takehomePercentage) nets that share
/// whatever the profile's commission; a sale without one nets what the profile's commission leaves.
@Suite struct TakehomeUnderCommissions {
    static let lines = [
        line("p1", "purchase", "ana", "2026-01-02T10:00:00Z",
             #"{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-02T10:00:00Z","price":"10.00","currency":"USD","takehomePercentage":0.7}"#),
        line("p2", "purchase", "ben", "2026-01-03T10:00:00Z",
             #"{"product":"handz.pro.monthly","transaction":"t2","expires":"2026-02-03T10:00:00Z","price":"10.00","currency":"USD"}"#),
    ]

    @Test func aReportedTakehomeShareIsNettedAsReportedUnderACommissionOfFifteenAndOfThirtyPercent() throws {
        let log = try TestLog(Self.lines)
        for commission in [15, 30] {
            var profile = Profile.handz
            profile.commissionPercent = commission
            let revenue = try log.replay(at: "2026-01-10T00:00:00Z", profile: profile).revenue()
            // ana keeps 7.00 as her store reported; ben's 10.00 less the profile's commission.
            let expected = Money.parse("7.00")! + Money.parse(commission == 15 ? "8.50" : "7.00")!
            #expect(revenue.lines.map(\.net) == [expected], "commission \(commission)%")
            // What the reported share takes beyond the commission: 85 % − 70 % of 10.00, or nothing at 30 %.
            #expect((revenue.takehomeAdjustments["USD"] ?? .zero) == Money.parse(commission == 15 ? "1.50" : "0")!,
                    "commission \(commission)%: \(revenue.takehomeAdjustments)")
        }
    }
}
