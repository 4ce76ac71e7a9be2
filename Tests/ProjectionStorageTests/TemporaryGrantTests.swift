import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// Rule TEMPORARY-GRANT (docs/rules.md): a grant gives access while the store confirms the
/// purchase, but it starts no subscription and is not revenue. Every report that reads
/// subscriptions (revenue's stocks, MRR and churn, the series' retention, the analysts' metrics)
/// treats it as access only, the fold and the time index alike.
@Suite struct TemporaryGrants {
    static func grant(_ id: String, _ user: String, _ time: String, _ txn: String, expires: String) -> String {
        line(id, "purchase", user, time, #"{"product":"handz.pro.monthly","transaction":"\#(txn)","expires":"\#(expires)","temporaryGrant":true}"#)
    }

    static func purchase(_ id: String, _ user: String, _ time: String, _ txn: String, expires: String, trial: Bool = false) -> String {
        let offer = trial ? #","offer":"free_trial","price":"0.00""# : #","price":"9.99""#
        return line(id, "purchase", user, time, #"{"product":"handz.pro.monthly","transaction":"\#(txn)","expires":"\#(expires)"\#(offer),"currency":"USD"}"#)
    }

    static let usd = Money.parse("9.99")!

    /// The series by month of a whole fold up to `to`.
    static func months(_ log: TestLog, to: String) throws -> [LedgerSeries.Bucket] {
        var o = ReplayOptions(profile: .handz, asOf: Timestamp.parse(to)!)
        o.to = o.asOf
        return try #require(try SeriesReplay.run(directory: log.path, options: o).series(by: .month)).rows
    }

    /// The time index's revenue, counts and series against a full fold's, as of each instant.
    static func expectIndexAgreesWithFold(_ log: TestLog, at instants: [String], _ what: String) throws {
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let index = try store.timeIndex().index
        for at in instants {
            let t = Timestamp.parse(at)!
            let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: t))
            #expect(try index.revenue(at: t, profile: .handz) == full.revenue(), "\(what): revenue at \(at)")
            #expect(try index.counts(at: t) == full.counts(), "\(what): counts at \(at)")
        }
        var o = ReplayOptions(profile: .handz, asOf: Timestamp.parse(instants.last!)!)
        o.to = o.asOf
        let totals = try SeriesReplay.run(directory: log.path, options: o)
        let buckets = try #require(SeriesBuckets(by: .day, from: totals.firstEvent!, to: o.asOf))
        let indexed = try #require(try index.series(buckets, from: nil, funnel: true, profile: .handz))
        let series = try #require(totals.series(by: .day, from: totals.firstEvent))
        #expect(indexed.rows.map(\.revenue) == series.rows.map(\.revenue), "\(what): revenue series")
        #expect(indexed.rows.map(\.retention) == series.rows.map(\.retention), "\(what): retention series")
    }

    @Test func TEMPORARY_GRANT_aGrantAloneIsAccessButNoSubscriptionNoMRRNoGrossNoChurnAndNoRetentionCohort() throws {
        let log = try TestLog([Self.grant("g", "u", "2026-03-01T10:00:00Z", "t2", expires: "2026-03-02T10:00:00Z")])
        let during = try log.replay(at: "2026-03-01T12:00:00Z")
        #expect(during.plan(of: "u").planState == .pro && during.plan(of: "u").entitlements == ["pro"], "the grant is access")
        let revenue = during.revenue()
        #expect(revenue.activeSubscriptions == 0 && revenue.activeTrials == 0)
        #expect(revenue.lines.isEmpty, "no gross and no MRR: \(revenue.lines)")
        #expect(during.counts()["subscription_started"] == 0 && during.counts()["trial_started"] == 0)
        let lapsed = try log.replay(at: "2026-04-01T12:00:00Z")
        #expect(lapsed.plan(of: "u").planState == .free)
        #expect(lapsed.revenue().churnedSubscribers == 0 && lapsed.revenue().activeSubscriptions == 0)
        #expect(lapsed.plan(of: "u").trialEligible, "a grant marks no trial used")
        // No retention cohort: the series' retention holds no subscriber.
        #expect(try Self.months(log, to: "2026-06-01T00:00:00Z").allSatisfy { $0.retention.subscribers == 0 })
        // The analysts' metrics: no new subscription, no MRR, no paid transaction, no paying customer.
        let model = try AnalystModel.build(directory: log.path, profile: .handz, partitions: 1).model
        let m = AnalystModels.window(model, from: Timestamp.parse("2026-02-01T00:00:00Z")!, to: Timestamp.parse("2026-05-01T00:00:00Z")!).total
        #expect(m.newSubscriptions == 0 && m.churned == 0 && m.active == 0 && m.paidTransactions == 0 && m.payingConversions == 0)
        #expect(m.mrr.values.allSatisfy { $0.new == .zero && $0.mrr == .zero }, "\(m.mrr)")
        #expect(m.lifetimeRevenue.values.allSatisfy { $0 == .zero } && m.revenue.values.allSatisfy { $0 == .zero })
        try Self.expectIndexAgreesWithFold(log, at: ["2026-03-01T12:00:00Z", "2026-03-03T12:00:00Z", "2026-04-01T12:00:00Z"], "grant alone")
    }

    @Test func TEMPORARY_GRANT_aGrantThenTheConfirmedPurchaseCountsOneSubscriptionFromThePurchase() throws {
        let log = try TestLog([
            Self.grant("g", "u", "2026-03-01T10:00:00Z", "t2", expires: "2026-03-02T10:00:00Z"),
            Self.purchase("p", "u", "2026-03-01T10:30:00Z", "t2", expires: "2026-04-01T10:30:00Z"),
            // A trial confirmed after its grant starts the trial as its offer says.
            Self.grant("h", "v", "2026-03-01T10:00:00Z", "v2", expires: "2026-03-02T10:00:00Z"),
            Self.purchase("q", "v", "2026-03-01T11:00:00Z", "v2", expires: "2026-03-08T11:00:00Z", trial: true),
        ])
        let during = try log.replay(at: "2026-03-01T12:00:00Z")
        let revenue = during.revenue()
        #expect(revenue.activeSubscriptions == 1 && revenue.activeTrials == 1)
        #expect(revenue.lines.map(\.gross) == [Self.usd] && revenue.lines.map(\.mrr) == [Self.usd], "one sale, booked once: \(revenue.lines)")
        #expect(during.counts()["subscription_started"] == 1 && during.counts()["trial_started"] == 1)
        #expect(!during.plan(of: "v").trialEligible, "the confirmed trial marks the trial used")
        let lapsed = try log.replay(at: "2026-05-01T12:00:00Z")
        #expect(lapsed.revenue().churnedSubscribers == 1, "the paid subscription lapsed; the trial was never paid")
        // One retention cohort, from the purchase's day.
        let cohorts = try Self.months(log, to: "2026-06-01T00:00:00Z").map(\.retention.subscribers)
        #expect(cohorts.first == 1 && cohorts.reduce(0, +) == 1, "\(cohorts)")
        try Self.expectIndexAgreesWithFold(log, at: ["2026-03-01T10:15:00Z", "2026-03-01T12:00:00Z", "2026-05-01T12:00:00Z"], "grant then purchase")
    }

    @Test func TEMPORARY_GRANT_aGrantDuringARunningSubscriptionChangesNothing() throws {
        let paid = [Self.purchase("p", "u", "2026-03-01T09:00:00Z", "t1", expires: "2026-04-01T09:00:00Z")]
        let plain = try TestLog(paid)
        let granted = try TestLog(paid + [Self.grant("g", "u", "2026-03-01T10:00:00Z", "t2", expires: "2026-03-02T10:00:00Z")])
        for at in ["2026-03-01T12:00:00Z", "2026-03-15T00:00:00Z", "2026-05-01T00:00:00Z"] {
            let a = try plain.replay(at: at), b = try granted.replay(at: at)
            #expect(a.revenue() == b.revenue(), "revenue at \(at)")
            #expect(a.counts() == b.counts(), "counts at \(at)")
            var planA = a.plan(of: "u"), planB = b.plan(of: "u")
            (planA.rule, planB.rule) = (.initial, .initial)
            #expect(planA == planB, "plan at \(at)")
        }
        #expect(try granted.replay(at: "2026-03-01T12:00:00Z").revenue().lines.map(\.gross) == [Self.usd])
        try Self.expectIndexAgreesWithFold(granted, at: ["2026-03-01T12:00:00Z", "2026-05-01T00:00:00Z"], "grant while subscribed")
    }

    @Test func TEMPORARY_GRANT_aRenewalOfAGrantIsTheStoresChargeAndMakesItASubscription() throws {
        let log = try TestLog([
            Self.grant("g", "u", "2026-03-01T10:00:00Z", "t2", expires: "2026-03-02T10:00:00Z"),
            line("r", "renewal", "u", "2026-03-02T10:00:00Z",
                 #"{"product":"handz.pro.monthly","transaction":"t3","originalTransaction":"t2","expires":"2026-04-02T10:00:00Z","price":"9.99","currency":"USD"}"#),
        ])
        let renewed = try log.replay(at: "2026-03-10T00:00:00Z").revenue()
        #expect(renewed.activeSubscriptions == 1 && renewed.lines.map(\.gross) == [Self.usd] && renewed.lines.map(\.mrr) == [Self.usd])
        #expect(try log.replay(at: "2026-05-10T00:00:00Z").revenue().churnedSubscribers == 1)
        try Self.expectIndexAgreesWithFold(log, at: ["2026-03-01T12:00:00Z", "2026-03-10T00:00:00Z", "2026-05-10T00:00:00Z"], "grant then renewal")
    }

    @Test func TEMPORARY_GRANT_aKeptProjectionKeepsTheGrantsMarkAndAnswersAsTheFoldDoes() throws {
        let log = try TestLog([Self.grant("g", "u", "2026-03-01T10:00:00Z", "t2", expires: "2026-03-02T10:00:00Z")])
        let folds = Array(try log.replay(at: "2026-03-01T12:00:00Z").users.folds)
        #expect(folds.first?.state.subscription?.temporaryGrant == true)
        let kept = try ProjectionFiles.store(folds, profile: .handz, in: log)
        let stored = try #require(try kept.read(chunk: 7))
        #expect(stored.users["u"] == folds.first, "read back with its mark")
        let reread = LedgerSnapshot(options: ReplayOptions(profile: .handz, asOf: Timestamp.parse("2026-03-01T12:00:00Z")!), users: stored.users, headPosition: 0)
        #expect(reread.revenue().activeSubscriptions == 0 && reread.plan(of: "u").planState == .pro)
    }

    @Test func TEMPORARY_GRANT_aFormerPayersGrantHidesNoChurnOnceItLapses() throws {
        let log = try TestLog([
            Self.purchase("p", "u", "2026-01-01T10:00:00Z", "t1", expires: "2026-02-01T10:00:00Z"),
            line("x", "expiration", "u", "2026-02-01T10:00:00Z"),
            Self.grant("g", "u", "2026-03-01T10:00:00Z", "t2", expires: "2026-03-02T10:00:00Z"),
        ])
        #expect(try log.replay(at: "2026-02-15T00:00:00Z").revenue().churnedSubscribers == 1, "the paid subscription lapsed")
        let granted = try log.replay(at: "2026-03-01T12:00:00Z")
        #expect(granted.plan(of: "u").planState == .pro && granted.revenue().activeSubscriptions == 0 && granted.revenue().churnedSubscribers == 0)
        #expect(try log.replay(at: "2026-04-01T00:00:00Z").revenue().churnedSubscribers == 1, "charged before: churned again once the grant lapses")
        try Self.expectIndexAgreesWithFold(log, at: ["2026-02-15T00:00:00Z", "2026-03-01T12:00:00Z", "2026-04-01T00:00:00Z"], "former payer's grant")
    }
}
