import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// What makes a lapsed subscriber churned (docs/rules.md#revenue): any charge counts, a credit pack
/// too; and only the production subscription is read, never a sandbox one kept beside it.
@Suite struct ChurnChargesAndEnvironments {
    static func credits(_ id: String, _ user: String) -> String {
        line(id, "consumable_purchase", user, "2026-01-02T00:00:00Z",
             #"{"product":"howru_sms_20","transaction":"\#(user)-sms","quantity":1,"price":"2.99","currency":"USD"}"#)
    }

    static func trial(_ id: String, _ user: String) -> String {
        line(id, "purchase", user, "2026-01-03T00:00:00Z",
             #"{"product":"howru_premium_monthly","transaction":"\#(user)-trial","expires":"2026-01-10T00:00:00Z","offer":"free_trial"}"#)
    }

    @Test func aUserWhoBoughtCreditsAndLetAnUnpaidTrialLapseIsChurnedAndOneWhoOnlyBoughtCreditsIsNot() throws {
        let log = try TestLog([
            Self.credits("1", "creditsAndTrial"), Self.trial("2", "creditsAndTrial"),
            line("3", "expiration", "creditsAndTrial", "2026-01-10T00:00:00Z"),
            Self.credits("4", "onlyCredits"),
        ], profile: .howru)
        let inTrial = try log.replay(at: "2026-01-05T00:00:00Z", profile: .howru).revenue()
        #expect(inTrial.activeTrials == 1 && inTrial.churnedSubscribers == 0)
        let lapsed = try log.replay(at: "2026-02-01T00:00:00Z", profile: .howru).revenue()
        #expect(lapsed.activeTrials == 0 && lapsed.activeSubscriptions == 0)
        #expect(lapsed.churnedSubscribers == 1 && lapsed.churnRate == 1, "the credit pack is a charge; credits alone are no subscription")
    }

    @Test func aSandboxPurchaseBesideALapsedProductionTrialDoesNotMakeItsUserChurned() throws {
        // One user let a production trial lapse and bought in the sandbox at 9.99; another paid in
        // production and lapsed. Only the second has churned.
        let log = try TestLog([
            Self.trial("1", "tester"),
            line("2", "expiration", "tester", "2026-01-10T00:00:00Z"),
            line("3", "purchase", "tester", "2026-01-04T00:00:00Z",
                 #"{"product":"howru_premium_monthly","transaction":"tester-sandbox","expires":"2026-02-04T00:00:00Z","price":"9.99","currency":"USD","environment":"sandbox"}"#),
            line("4", "expiration", "tester", "2026-02-04T00:00:00Z", #"{"environment":"sandbox"}"#),
            line("5", "purchase", "payer", "2026-01-04T00:00:00Z",
                 #"{"product":"howru_premium_monthly","transaction":"payer-1","expires":"2026-02-04T00:00:00Z","price":"4.99","currency":"USD"}"#),
        ], profile: .howru)
        let snapshot = try log.replay(at: "2026-02-10T00:00:00Z", profile: .howru)
        #expect(snapshot.users.state(of: "tester")?.sandbox != nil && snapshot.users.state(of: "tester")?.subscription?.isTrial == true,
                "the tester holds a production trial and a sandbox subscription")
        let lapsed = snapshot.revenue()
        #expect(lapsed.activeSubscriptions == 0 && lapsed.activeTrials == 0)
        #expect(lapsed.churnedSubscribers == 1, "only the user who paid in production has churned")
    }
}
