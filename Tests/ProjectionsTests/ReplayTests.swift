import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@testable import Projections


@Suite struct ReadModels {
    @Test func planStatesAsOfAnInstant() throws {
        let s = try TestLog(story).replay(at: "2026-02-03T00:00:00Z")
        #expect(s.plan(of: "a").planState == .pro)
        #expect(s.plan(of: "b").planState == .proGrace && s.plan(of: "b").graceReason == .billing)
        #expect(s.plan(of: "c").planState == .free)
        #expect(s.plan(of: "d").planState == .free)
        #expect(s.plan(of: "e").planState == .guest)
    }

    @Test func countsCountEachRealOccurrenceOnceAndLeaveSandboxOut() throws {
        let counts = try TestLog(story).replay(at: "2026-03-01T00:00:00Z").counts()
        #expect(counts["paywall_viewed"] == 2 && counts["paywall_cta_tapped"] == 1 && counts["purchase_started"] == 2 && counts["purchase_success"] == 1)
        #expect(counts["trial_started"] == 3 && counts["subscription_started"] == 1)
        #expect(counts["renewal"] == 1 && counts["trial_converted"] == 1 && counts["billing_issue"] == 1 && counts["refund"] == 1)
        #expect(counts["cancellation"] == 0 && counts["expiration"] == 0 && counts["restore_clicked"] == 0)
    }

    @Test func countsRespectTheWindow() throws {
        let counts = try TestLog(story).replay(at: "2026-03-01T00:00:00Z", from: "2026-01-02T00:00:00Z", to: "2026-01-05T00:00:00Z").counts()
        #expect(counts["paywall_viewed"] == 1 && counts["trial_started"] == 1 && counts["subscription_started"] == 1 && counts["refund"] == 1)
    }

    @Test func funnelCountsEachStepAfterTheOneBefore() throws {
        let f = try TestLog(story).replay(at: "2026-03-01T00:00:00Z").funnel()
        #expect(f.steps.map(\.users) == [2, 1, 1, 1])
        #expect(f.byContext["settings"]?.map(\.users) == [1, 0, 0, 0])
        #expect(f.byContext["onboarding"]?.map(\.users) == [1, 1, 1, 1])
        #expect(f.trialsStarted == 3 && f.trialsConverted == 1)
        #expect(f.cohorts == [.init(week: "2025-12-29", started: 2, converted: 1), .init(week: "2026-01-05", started: 1, converted: 0)])
    }

    @Test func notificationScheduleWithCapsChannelsAndCancellations() throws {
        let n = try TestLog(story).replay(at: "2026-01-07T00:00:00Z").notifications()
        #expect(n.map { "\($0.user) \($0.kind.rawValue) \($0.fireAt) \($0.status.rawValue) \($0.channels)" } == [
            "a trial_ending 2026-01-06T10:03:00Z due [\"push\", \"in_app\"]",
            "c trial_ending 2026-01-08T12:00:00Z cancelled [\"push\", \"in_app\"]",
            "d trial_ending 2026-01-10T00:00:00Z scheduled [\"in_app\"]",
        ])
        let later = try TestLog(story).replay(at: "2026-02-03T00:00:00Z").notifications()
        let b = later.filter { $0.user == "b" }
        #expect(b.count == 1 && b[0].kind == .paymentFailed && b[0].status == .due && b[0].deepLink == "handz://paywall?context=paymentFailed")
    }

    @Test func theScheduleIsOrderedByFireTimeThenUserThenKind() throws {
        let trial = #"{"product":"handz.pro.monthly","transaction":"T","expires":"2026-01-10T00:00:00Z","offer":"free_trial"}"#
        let n = try TestLog([
            line("1", "purchase", "z", "2026-01-03T00:00:00Z", trial.replacingOccurrences(of: "\"T\"", with: "\"z1\"")),
            line("2", "purchase", "y", "2026-01-03T00:00:00Z", trial.replacingOccurrences(of: "\"T\"", with: "\"y1\"")),
            line("3", "purchase", "x", "2026-01-03T00:00:00Z", trial.replacingOccurrences(of: "\"T\"", with: "\"x1\"")),
            // x's payment fails exactly when the trial reminder fires (48 h before the trial ends).
            line("4", "billing_issue", "x", "2026-01-08T00:00:00Z"),
        ]).replay(at: "2026-01-09T00:00:00Z").notifications()
        #expect(n.map { "\($0.user) \($0.kind.rawValue) \($0.fireAt)" } == [
            "x payment_failed 2026-01-08T00:00:00Z",
            "x trial_ending 2026-01-08T00:00:00Z",
            "y trial_ending 2026-01-08T00:00:00Z",
            "z trial_ending 2026-01-08T00:00:00Z",
        ])
    }

    @Test func revenueGrossRefundedNetMRRAndActives() throws {
        let r = try TestLog(story).replay(at: "2026-02-03T00:00:00Z").revenue()
        #expect(r.lines == [.init(currency: "USD", gross: Money.parse("19.98")!, refunded: .zero, net: Money.parse("16.983")!, mrr: Money.parse("19.98")!)])
        #expect(r.activeSubscriptions == 2 && r.activeTrials == 0)
        #expect(r.trialConversionRate == 1.0 / 3.0)
    }

    @Test func ruleDiffShowsWhoALongerBillingGraceChanges() throws {
        let log = try TestLog(story)
        var seven = Profile.handz
        seven.billingGraceDays = 7
        let diff = RuleDiff.compare(try log.replay(at: "2026-02-06T00:00:00Z"), try log.replay(at: "2026-02-06T00:00:00Z", profile: seven))
        #expect(diff.map(\.user) == ["b"])
        #expect(diff[0].a.planState == .free && diff[0].b.planState == .proGrace)
        #expect(diff[0].fields == ["planState", "graceReason", "graceEndsAt", "entitlements"])
    }

    /// Users known to only one of the snapshots are compared too (as a user without events in the
    /// other), and the differences come in user id order whichever snapshot knew the user.
    @Test func ruleDiffComparesUsersKnownToOnlyOneSnapshotInUserIDOrder() throws {
        let log = try TestLog(story)
        let early = try log.replay(at: "2026-01-02T00:00:00Z"), later = try log.replay(at: "2026-01-05T12:00:00Z")
        #expect(!early.userIDs.contains("b") && later.userIDs.contains("b"))
        let diff = RuleDiff.compare(early, later)
        #expect(diff.map(\.user) == diff.map(\.user).sorted(), "\(diff.map(\.user))")
        let b = try #require(diff.first { $0.user == "b" }, "b only in the later snapshot: \(diff.map(\.user))")
        #expect(b.a == early.plan(of: "b") && b.b.planState == .pro)
        #expect(diff.contains { $0.user == "d" }, "d known to both, on trial only later: \(diff.map(\.user))")
        // The other way round: b known only to the first snapshot.
        let back = RuleDiff.compare(later, early)
        #expect(back.map(\.user) == diff.map(\.user) && back.first { $0.user == "b" }?.a.planState == .pro)
    }
}

@Suite struct RuleDiffs {
    /// The definition: every user of either snapshot, in id order, with the fields whose values differ.
    static func reference(_ a: LedgerSnapshot, _ b: LedgerSnapshot) -> [PlanDifference] {
        Set(a.userIDs).union(b.userIDs).sorted().compactMap { user in
            let va = a.plan(of: user), vb = b.plan(of: user)
            let fields = [("planState", va.planState != vb.planState), ("graceReason", va.graceReason != vb.graceReason),
                          ("graceEndsAt", va.graceEndsAt != vb.graceEndsAt), ("entitlements", va.entitlements != vb.entitlements),
                          ("trialEligible", va.trialEligible != vb.trialEligible), ("credits", va.credits != vb.credits)]
                .filter(\.1).map(\.0)
            return fields.isEmpty ? nil : PlanDifference(user: user, a: va, b: vb, fields: fields)
        }
    }

    @Test func theDiffOverSeveralPartitionsIsEveryUserOfEitherSnapshotInIdOrder() throws {
        let generated = PopulationGenerator(profile: .handz, users: 300, seed: 17).events()
        let log = try TestLog(generated.map { EventCodec.encode($0) })
        // Five days after some billing issues: in a 7-day billing grace, not in a 3-day one.
        let inGrace = generated.filter { $0.type == .billingIssue }.prefix(3)
            .map { Timestamp(nanoseconds: $0.time.nanoseconds + 5 * 86_400 * 1_000_000_000).description }
        var seven = Profile.handz
        seven.billingGraceDays = 7
        var differing = 0
        for (partitionsA, partitionsB) in [(1, 1), (4, 1), (3, 2)] {
            for at in ["2026-01-20T00:00:00Z", "2026-03-01T00:00:00Z"] + inGrace {
                let a = try log.replay(at: at, partitions: partitionsA)
                let b = try log.replay(at: at, profile: seven, partitions: partitionsB)
                let diff = RuleDiff.compare(a, b)
                #expect(diff == Self.reference(a, b), "partitions \(partitionsA), \(partitionsB) at \(at)")
                differing += diff.count
            }
            // Users only in B (a later instant: users who came after A's), compared with a plan A has not seen.
            let early = try log.replay(at: "2026-01-20T00:00:00Z", partitions: partitionsA)
            let later = try log.replay(at: "2026-03-01T00:00:00Z", profile: seven, partitions: partitionsB)
            #expect(Set(later.userIDs).subtracting(early.userIDs).count > 0)
            #expect(RuleDiff.compare(early, later) == Self.reference(early, later), "partitions \(partitionsA), \(partitionsB), later")
        }
        #expect(differing > 0, "a longer billing grace changes someone in this population")
    }
}

@Suite struct ReplayConsistency {
    @Test func oneAndFourPartitionsGiveIdenticalOutput() throws {
        let events = PopulationGenerator(profile: .howru, users: 400, seed: 5).events().map { EventCodec.encode($0) }
        let log = try TestLog(events, batch: 100, profile: .howru)
        let one = try log.replay(at: "2026-04-01T00:00:00Z", profile: .howru)
        let four = try log.replay(at: "2026-04-01T00:00:00Z", profile: .howru, partitions: 4)
        #expect(one.userIDs == four.userIDs)
        #expect(one.userIDs.map { one.plan(of: $0) } == four.userIDs.map { four.plan(of: $0) })
        #expect(one.counts() == four.counts())
        #expect(one.funnel() == four.funnel())
        #expect(one.notifications() == four.notifications())
        #expect(one.revenue() == four.revenue())
        #expect(one.userIDs.count == 400)
    }

    @Test func lateEventsAreCorrectedByFoldingThatUserAgain() throws {
        var events = PopulationGenerator(profile: .handz, users: 200, seed: 9).events().map { EventCodec.encode($0) }
        let inOrder = try TestLog(events.sorted { try! EventCodec.decode($0).time < EventCodec.decode($1).time })
        events.reverse()
        let reversed = try TestLog(events)
        let a = try inOrder.replay(at: "2026-05-01T00:00:00Z"), b = try reversed.replay(at: "2026-05-01T00:00:00Z")
        #expect(a.userIDs.map { a.plan(of: $0) } == b.userIDs.map { b.plan(of: $0) })
        #expect(a.counts() == b.counts())
        #expect(a.notifications() == b.notifications())
        #expect(a.funnel().trialsConverted == b.funnel().trialsConverted)
    }

    @Test func transferHandsTheSubscriptionToItsRecipient() throws {
        let log = try TestLog([
            line("1", "purchase", "old", "2026-01-01T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-01T00:00:00Z"}"#),
            line("2", "transfer", "old", "2026-01-10T00:00:00Z", #"{"to":"new"}"#),
        ])
        let s = try log.replay(at: "2026-01-11T00:00:00Z")
        #expect(s.plan(of: "old").planState == .free)
        #expect(s.plan(of: "new").planState == .pro && s.plan(of: "new").rule == .transferIn)
    }
}
