import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// Churn (docs/rules.md#revenue): users who paid at some point and are not subscribed as of the
/// instant; churn rate = churned / (churned + active subscriptions).
@Suite struct Churn {
    static func paid(_ id: String, _ user: String, _ time: String, expires: String) -> String {
        line(id, "purchase", user, time, #"{"product":"handz.pro.monthly","transaction":"\#(user)1","expires":"\#(expires)","price":"9.99","currency":"USD"}"#)
    }

    static func trial(_ id: String, _ user: String, _ time: String, expires: String) -> String {
        line(id, "purchase", user, time, #"{"product":"handz.pro.monthly","transaction":"\#(user)1","expires":"\#(expires)","offer":"free_trial"}"#)
    }

    /// Nine handz users; as of 2026-03-01T12:00:00Z three are subscribed, one is in a trial, two
    /// have churned and three never paid.
    static let story: [String] = [
        // Subscribed: paying, a converted trial, and a failed payment still in billing grace (until 2026-03-03).
        paid("1", "paying", "2026-02-10T00:00:00Z", expires: "2026-03-10T00:00:00Z"),
        trial("2", "converted", "2026-02-10T00:00:00Z", expires: "2026-02-17T00:00:00Z"),
        line("3", "renewal", "converted", "2026-02-17T00:00:00Z",
             #"{"product":"handz.pro.monthly","transaction":"converted2","expires":"2026-03-17T00:00:00Z","price":"9.99","currency":"USD"}"#),
        paid("4", "grace", "2026-01-28T00:00:00Z", expires: "2026-02-28T00:00:00Z"),
        line("5", "billing_issue", "grace", "2026-02-28T00:00:00Z"),
        // Churned: paid, cancelled, ran out on 2026-02-02; paid, refunded the next day.
        paid("6", "lapsed", "2026-01-02T00:00:00Z", expires: "2026-02-02T00:00:00Z"),
        line("7", "cancellation", "lapsed", "2026-01-10T00:00:00Z"),
        paid("8", "refunded", "2026-01-05T00:00:00Z", expires: "2026-02-05T00:00:00Z"),
        line("9", "refund", "refunded", "2026-01-06T00:00:00Z", #"{"transaction":"refunded1"}"#),
        // In a trial now: neither subscribed nor churned.
        trial("10", "trialing", "2026-02-27T00:00:00Z", expires: "2026-03-06T00:00:00Z"),
        // Never paid: a trial that expired unconverted, an account, a sandbox purchase that ran out.
        trial("11", "unconverted", "2026-01-10T00:00:00Z", expires: "2026-01-17T00:00:00Z"),
        line("12", "expiration", "unconverted", "2026-01-17T00:00:00Z"),
        line("13", "account_created", "account", "2026-01-03T00:00:00Z"),
        line("14", "purchase", "sandbox", "2026-01-04T00:00:00Z",
             #"{"product":"handz.pro.monthly","transaction":"sandbox1","expires":"2026-02-04T00:00:00Z","price":"9.99","currency":"USD","environment":"sandbox"}"#),
        line("15", "expiration", "sandbox", "2026-02-04T00:00:00Z", #"{"environment":"sandbox"}"#),
    ]

    @Test func churnCountsUsersWhoPaidAndAreNoLongerSubscribedOverChurnedPlusActive() throws {
        let r = try TestLog(Self.story).replay(at: "2026-03-01T12:00:00Z").revenue()
        #expect(r.activeSubscriptions == 3 && r.activeTrials == 1)
        #expect(r.churnedSubscribers == 2)
        #expect(r.churnRate == 2.0 / 5.0)
    }

    @Test func churnIsAsOfTheInstant() throws {
        let log = try TestLog(Self.story)
        // 2026-01-20: lapsed is cancelled but paid up to 2026-02-02; refunded has churned; nobody else has paid yet.
        let january = try log.replay(at: "2026-01-20T00:00:00Z").revenue()
        #expect(january.activeSubscriptions == 1 && january.activeTrials == 0)
        #expect(january.churnedSubscribers == 1 && january.churnRate == 1.0 / 2.0)
        // 2026-03-05: grace has run out (billing grace ended 2026-03-03) and churned too.
        let march = try log.replay(at: "2026-03-05T00:00:00Z").revenue()
        #expect(march.activeSubscriptions == 2 && march.activeTrials == 1)
        #expect(march.churnedSubscribers == 3 && march.churnRate == 3.0 / 5.0)
    }

    @Test func aSubscriberWhoComesBackIsNoLongerChurned() throws {
        let story = [
            Self.paid("1", "back", "2026-01-02T00:00:00Z", expires: "2026-02-02T00:00:00Z"),
            line("2", "cancellation", "back", "2026-01-10T00:00:00Z"),
            line("3", "purchase", "back", "2026-02-20T00:00:00Z",
                 #"{"product":"handz.pro.monthly","transaction":"back2","expires":"2026-03-20T00:00:00Z","price":"9.99","currency":"USD"}"#),
        ]
        let log = try TestLog(story)
        let away = try log.replay(at: "2026-02-10T00:00:00Z").revenue()
        #expect(away.churnedSubscribers == 1 && away.activeSubscriptions == 0 && away.churnRate == 1.0)
        let back = try log.replay(at: "2026-03-01T00:00:00Z").revenue()
        #expect(back.churnedSubscribers == 0 && back.activeSubscriptions == 1 && back.churnRate == 0)
    }

    /// Seed 000 §5.3 "Restore purchases on second device" / "User has old transaction but new user
    /// account": a subscription moved to a new account is the same subscription,
    /// not a loss. Neither the old account nor the new one is churned while it runs; when it lapses
    /// on the new account, that one user is churned.
    @Test func MirrorMate_RestorePurchases_aTransferToANewAccountIsNotChurn() throws {
        let story = [
            line("1", "purchase", "old", "2026-01-02T00:00:00Z",
                 #"{"product":"com.mirrormate.premium.monthly","transaction":"m1","expires":"2026-02-02T00:00:00Z","price":"9.99","currency":"USD"}"#),
            line("2", "transfer", "old", "2026-01-10T00:00:00Z", #"{"to":"new"}"#),
        ]
        let log = try TestLog(story, profile: .mirrormate)
        let moved = try log.replay(at: "2026-01-20T00:00:00Z", profile: .mirrormate).revenue()
        #expect(moved.activeSubscriptions == 1)
        #expect(moved.churnedSubscribers == 0 && moved.churnRate == 0)
        let lapsed = try log.replay(at: "2026-02-10T00:00:00Z", profile: .mirrormate).revenue()
        #expect(lapsed.activeSubscriptions == 0)
        #expect(lapsed.churnedSubscribers == 1 && lapsed.churnRate == 1)
    }

    @Test func withNobodyPaidTheChurnRateIsZero() throws {
        let r = try TestLog(Array(Self.story.suffix(6))).replay(at: "2026-03-01T12:00:00Z").revenue()
        #expect(r.activeSubscriptions == 0 && r.activeTrials == 1)
        #expect(r.churnedSubscribers == 0 && r.churnRate == 0)
    }
}
