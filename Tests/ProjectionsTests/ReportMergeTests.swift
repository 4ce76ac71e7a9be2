import Foundation
import Testing
import EventStore
import SubscriptionDomain
@testable import Projections

/// Issue 18: reports of partition logs (disjoint users) merge into the single log's reports, as
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

    @Test func revenueNetIsRoundedOnceOnTheMergedTotal() {
        // 30 % of one micro-unit rounds to 0 in each partition, but 30 % of two rounds to 1.
        func part(_ active: Int, churned: Int) -> RevenueReport {
            RevenueReport(lines: [RevenueReport.line(currency: "USD", gross: Money(micros: 1), refunded: .zero, mrr: Money(micros: 1), commissionPercent: 30, adjustment: .zero)],
                          activeSubscriptions: active, activeTrials: 0, churnedSubscribers: churned,
                          churnRate: LedgerSnapshot.churnRate(churned: churned, active: active), trialConversionRate: 0,
                          trialsStarted: 0, trialsConverted: 0, commissionPercent: 30, takehomeAdjustments: [:])
        }
        let a = part(1, churned: 1), b = part(9, churned: 0)
        #expect(a.lines[0].net == Money(micros: 1))
        let merged = RevenueReport.merging([a, b])
        #expect(merged.lines[0].gross == Money(micros: 2) && merged.lines[0].net == Money(micros: 1))
        #expect(merged.churnRate == 1.0 / 11.0)   // not (0.5 + 0) / 2
    }
}
