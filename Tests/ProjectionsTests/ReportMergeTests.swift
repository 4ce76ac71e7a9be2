import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@testable import Projections

/// Reports of partition logs (disjoint users) merge into the single log's reports, as
/// report values (so that series of buckets can merge bucket by bucket with the same functions).
@Suite struct ReportMerge {
    /// A generated population in one log, and the same events split by Kafka's partitioner into `n` logs.
    static func logs(users: Int, partitions n: Int) throws -> (single: TestLog, parts: [TestLog]) {
        let events = PopulationGenerator(profile: .handz, users: users, seed: 3).events()
        let lines = events.map { e -> String in
            var out: [UInt8] = []
            EventCodec.encode(e, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        let single = try TestLog(lines, batch: 500)
        let parts = try (0..<n).map { p in
            try TestLog(zip(events, lines).filter { KafkaPartitioner.partition(of: $0.0.user, count: n) == p }.map(\.1), batch: 500)
        }
        return (single, parts)
    }

    @Test func reportsOfPartitionLogsMergeIntoTheSingleLogsReports() throws {
        let (single, parts) = try Self.logs(users: 400, partitions: 3)
        for (at, from, to) in [("2026-05-01T00:00:00Z", nil, nil), ("2026-04-01T00:00:00Z", "2026-02-15T00:00:00Z", "2026-04-01T00:00:00Z")] {
            let one = try single.replay(at: at, from: from, to: to)
            let each = try parts.map { try $0.replay(at: at, from: from, to: to) }
            #expect(LedgerSnapshot.mergingCounts(each.map { $0.counts() }) == one.counts())
            #expect(FunnelReport.merging(each.map { $0.funnel() }) == one.funnel())
            #expect(RevenueReport.merging(each.map { $0.revenue() }) == one.revenue())
            #expect(ScheduledNotification.merging(each.map { $0.notifications() }) == one.notifications())
            // Not a copy of one partition's: the partitions differ from each other and from the whole.
            #expect(each[0].funnel() != one.funnel() && each[0].funnel().steps.map(\.rate) != each[1].funnel().steps.map(\.rate))
        }
        var grace7 = Profile.handz
        grace7.billingGraceDays = 7
        var differing = 0
        for day in stride(from: 1, through: 28, by: 6) {
            let at = "2026-04-\(day < 10 ? "0" : "")\(day)T12:00:00Z"
            let diff = RuleDiff.compare(try single.replay(at: at), try single.replay(at: at, profile: grace7))
            differing += diff.count
            #expect(RuleDiff.merging(try parts.map { RuleDiff.compare(try $0.replay(at: at), try $0.replay(at: at, profile: grace7)) }) == diff)
        }
        #expect(differing > 0)
    }

    @Test func ratesAreRecomputedFromMergedTermsNeverAveraged() {
        let names = ["a", "b"]
        let small = FunnelReport(steps: FunnelReport.steps(names: names, users: [10, 9]), byContext: ["x": FunnelReport.steps(names: names, users: [10, 9])],
                                 trialsStarted: 1, trialsConverted: 1, cohorts: [.init(week: "2026-01-05", started: 1, converted: 1)])
        let large = FunnelReport(steps: FunnelReport.steps(names: names, users: [1000, 100]), byContext: [:],
                                 trialsStarted: 100, trialsConverted: 10, cohorts: [.init(week: "2026-01-05", started: 100, converted: 10)])
        let merged = FunnelReport.merging([small, large])
        #expect(merged.steps.map(\.users) == [1010, 109])
        #expect(merged.steps[1].rate == 109.0 / 1010.0)          // an average of 0.9 and 0.1 would say 0.5
        #expect(merged.byContext["x"]?.map(\.users) == [10, 9])  // a context one partition lacks counts zero there
        #expect(merged.cohorts == [.init(week: "2026-01-05", started: 101, converted: 11)])
        #expect(merged.trialsStarted == 101 && merged.trialsConverted == 11)
    }

    @Test func reducedCommissionSalesOfEveryPartitionLowerTheMergedNet() throws {
        // Sales whose store reports takehomePercentage (RevenueCat) net that share, in whichever partition their user is.
        let users = (0..<12).map { "u\($0)" }
        let lines = users.enumerated().flatMap { i, u in
            [line("p\(i)", "purchase", u, "2026-01-0\(1 + i % 9)T10:00:00Z",
                  #"{"product":"handz.pro.monthly","transaction":"t\#(i)","expires":"2026-02-01T10:00:00Z","price":"9.99","currency":"USD"\#(i % 3 == 0 ? "" : #","takehomePercentage":0.7"#)}"#)]
                + (i % 4 == 1 ? [line("r\(i)", "refund", u, "2026-01-20T10:00:00Z", #"{"transaction":"t\#(i)"}"#)] : [])
        }
        let single = try TestLog(lines)
        let parts = try (0..<3).map { p in try TestLog(lines.filter { l in users.contains { l.contains("\"user\":\"\($0)\"") && KafkaPartitioner.partition(of: $0, count: 3) == p } }) }
        let one = try single.replay(at: "2026-01-25T00:00:00Z").revenue()
        let each = try parts.map { try $0.replay(at: "2026-01-25T00:00:00Z").revenue() }
        #expect(each.filter { !$0.takehomeAdjustments.isEmpty }.count >= 2, "reduced-commission sales in several partitions")
        #expect(RevenueReport.merging(each) == one)
        // 6 sales kept at 70 % of 9.99 and 3 at 85 % (two reduced-commission sales and one other were refunded).
        #expect(one.lines.first?.net == Money.parse("67.4325")!)
    }

    @Test func notificationSummariesOfPartitionsSumEveryKindStatusAndInAppOnlyCount() throws {
        // Eight subscribers whose payment fails; the even ones turned billing notifications off (in-app only).
        let users = (0..<8).map { "n\($0)" }
        func lines(_ keep: (String) -> Bool) -> [String] {
            users.enumerated().filter { keep($0.element) }.flatMap { i, u in
                [line("p\(i)", "purchase", u, "2026-01-01T10:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t\#(i)","expires":"2026-02-01T10:00:00Z","price":"9.99","currency":"USD"}"#),
                 line("b\(i)", "billing_issue", u, "2026-02-01T10:00:00Z")]
                    + (i % 2 == 0 ? [line("d\(i)", "notifications_disabled", u, "2026-01-02T10:00:00Z", #"{"category":"billing"}"#)] : [])
            }
        }
        let single = try TestLog(lines { _ in true })
        let parts = try (0..<2).map { p in try TestLog(lines { KafkaPartitioner.partition(of: $0, count: 2) == p }) }
        let one = try single.replay(at: "2026-02-02T00:00:00Z").notificationSummary()
        let each = try parts.map { try $0.replay(at: "2026-02-02T00:00:00Z").notificationSummary() }
        #expect(each.allSatisfy { $0.inAppOnly[.paymentFailed, default: 0] > 0 }, "in-app-only entries in both partitions")
        #expect(one.inAppOnly[.paymentFailed] == 4)
        #expect(NotificationSummary.merging(each) == one)
    }

    @Test func mergedSchedulesGoByFireTimeThenUserThenPaymentFailedFirst() {
        let t = Timestamp.parse("2026-03-01T09:00:00Z")!, later = Timestamp.parse("2026-03-01T09:00:01Z")!
        func n(_ user: String, _ kind: ScheduledNotification.Kind, _ at: Timestamp) -> ScheduledNotification {
            ScheduledNotification(user: user, kind: kind, fireAt: at, deepLink: "", copy: "", channels: ["push", "in_app"], status: .scheduled)
        }
        // Each partition's list is in schedule order already; entries of different partitions tie on the fire time.
        let partA = [n("u2", .trialEnding, t), n("u3", .paymentFailed, t), n("u3", .trialEnding, t)]
        let partB = [n("u1", .trialEnding, t), n("u1", .paymentFailed, later)]
        let merged = ScheduledNotification.merging([partA, partB])
        #expect(merged.map { "\($0.user) \($0.kind.rawValue)" } == ["u1 trial_ending", "u2 trial_ending", "u3 payment_failed", "u3 trial_ending", "u1 payment_failed"])
        #expect(ScheduledNotification.merging([partB, partA]) == merged)
    }

    @Test func revenueNetIsRoundedOnceOnTheMergedTotal() {
        // 30 % of one micro-unit rounds to 0 in each partition, but 30 % of two rounds to 1.
        func part(_ active: Int, churned: Int) -> RevenueReport {
            RevenueReport(lines: [RevenueReport.line(currency: "USD", gross: Money(micros: 1), refunded: .zero, mrr: Money(micros: 1), commissionPercent: 30, adjustment: .zero)],
                          activeSubscriptions: active, activeTrials: 0, churnedSubscribers: churned,
                          churnRate: Rates.churn(churned: churned, active: active), trialConversionRate: 0,
                          trialsStarted: 0, trialsConverted: 0, commissionPercent: 30, takehomeAdjustments: [:])
        }
        let a = part(1, churned: 1), b = part(9, churned: 0)
        #expect(a.lines[0].net == Money(micros: 1))
        let merged = RevenueReport.merging([a, b])
        #expect(merged.lines[0].gross == Money(micros: 2) && merged.lines[0].net == Money(micros: 1))
        #expect(merged.churnRate == 1.0 / 11.0)   // not (0.5 + 0) / 2
    }
}
