import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections
@testable import ProjectionStorage
import Ingest

/// Series (docs/rules.md#series): buckets of a day, a Monday-based week or a month
/// (UTC); flows within each bucket, stocks at its end, cohorts by the bucket they start in; all
/// from one pass, equal to the plain reports over the same window or at the same instant.
@Suite struct Series {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Each sample log of events/ imported under its own profile.
    static func sampleLogs() throws -> [(TestLog, Profile)] {
        try ["handz", "howru", "mirrormate", "sportstime", "tomo"].map { name in
            let profile = Profile.named(name)!
            let log = try TestLog([], profile: profile)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/events/\(name).jsonl")))
            let imported = try log.append(bytes: bytes, file: name, profile: profile)
            #expect(imported.rejections.isEmpty, "\(imported.rejections)")
            return (log, profile)
        }
    }

    static func t(_ s: String) -> Timestamp { Timestamp.parse(s)! }

    static func totals(_ log: TestLog, _ profile: Profile = .handz, to: String, from: String? = nil, partitions: Int = 2, cache: Bool = true) throws -> SeriesTotals {
        var o = ReplayOptions(profile: profile, asOf: t(to))
        o.to = t(to)
        o.from = from.map(t)
        o.partitions = partitions
        o.eventCache = cache
        o.buildEventCache = cache
        return try SeriesReplay.run(directory: log.path, options: o)
    }

    @Test func weeksStartOnMondayMonthsOnTheFirstAndTheEndsAreTheWindows() throws {
        // 2026-01-01 is a Thursday.
        let weeks = SeriesBuckets(by: .week, from: Self.t("2026-01-01T10:00:00Z"), to: Self.t("2026-01-20T06:00:00Z"))!
        #expect(weeks.bounds.map(\.description) == ["2026-01-01T10:00:00Z", "2026-01-05T00:00:00Z", "2026-01-12T00:00:00Z", "2026-01-19T00:00:00Z", "2026-01-20T06:00:00Z"])
        let months = SeriesBuckets(by: .month, from: Self.t("2025-12-15T00:00:00Z"), to: Self.t("2026-03-01T00:00:00Z"))!
        #expect(months.bounds.map(\.description) == ["2025-12-15T00:00:00Z", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"])
        let days = SeriesBuckets(by: .day, from: Self.t("2026-02-27T23:00:00Z"), to: Self.t("2026-03-01T00:00:01Z"))!
        #expect(days.bounds.map(\.description) == ["2026-02-27T23:00:00Z", "2026-02-28T00:00:00Z", "2026-03-01T00:00:00Z", "2026-03-01T00:00:01Z"])
        #expect(days.index(of: Self.t("2026-02-28T00:00:00Z")) == 1 && days.index(of: Self.t("2026-03-01T00:00:01Z")) == nil)
        // A window of more buckets than the cap is refused, not allocated.
        #expect(SeriesBuckets(by: .day, from: Self.t("1970-01-01T00:00:00Z"), to: Self.t("2100-01-01T00:00:00Z")) == nil)
    }

    @Test func everyBucketsStocksEqualTheRevenueReportAtItsEnd() throws {
        for (log, profile) in try Self.sampleLogs() {
            for by in [SeriesGranularity.week, .day] where by == .week || profile.name == "handz" || profile.name == "sportstime" {
                let series = try Self.totals(log, profile, to: "2026-03-01T00:00:00Z").series(by: by)!
                #expect(series.rows.count > 2)
                for b in series.rows {
                    let plain = try log.replay(at: b.end.description, profile: profile).revenue()
                    let at = "\(profile.name) \(by) ending \(b.end)"
                    #expect(b.revenue.activeSubscriptions == plain.activeSubscriptions, "\(at)")
                    #expect(b.revenue.activeTrials == plain.activeTrials, "\(at)")
                    #expect(b.revenue.churnedSubscribers == plain.churnedSubscribers, "\(at)")
                    #expect(b.revenue.churnRate == plain.churnRate, "\(at)")
                    for line in plain.lines { #expect(b.revenue.lines.first { $0.currency == line.currency }?.mrr ?? .zero == line.mrr, "\(at) \(line.currency)") }
                }
            }
        }
    }

    @Test func bucketFlowsAddUpToThePlainReportsOverTheSameWindow() throws {
        for (log, profile) in try Self.sampleLogs() {
            for from in [nil, "2026-01-10T00:00:00Z"] {
                let totals = try Self.totals(log, profile, to: "2026-02-20T00:00:00Z", from: from)
                let plain = try log.replay(at: "2026-02-20T00:00:00Z", profile: profile, from: from ?? "1970-01-01T00:00:00Z", to: "2026-02-20T00:00:00Z")
                for by in SeriesGranularity.allCases {
                    let rows = totals.series(by: by)!.rows
                    let at = "\(profile.name) by \(by) from \(from ?? "the first event")"
                    for (name, n) in plain.counts() { #expect(rows.reduce(0) { $0 + $1.counts[name]! } == n, "\(at) \(name)") }
                    let funnel = plain.funnel()
                    for (i, step) in funnel.steps.enumerated() { #expect(rows.reduce(0) { $0 + $1.funnel.steps[i].users } == step.users, "\(at) \(step.name)") }
                    for (context, steps) in funnel.byContext {
                        for (i, step) in steps.enumerated() {
                            #expect(rows.reduce(0) { $0 + ($1.funnel.byContext[context]?[i].users ?? 0) } == step.users, "\(at) \(context) \(step.name)")
                        }
                    }
                    #expect(rows.reduce(0) { $0 + $1.funnel.trialsStarted } == funnel.trialsStarted, "\(at)")
                    #expect(rows.reduce(0) { $0 + $1.funnel.trialsConverted } == funnel.trialsConverted, "\(at)")
                    #expect(rows.flatMap(\.funnel.cohorts).map(\.week).count >= Set(funnel.cohorts.map(\.week)).count, "\(at)")
                    guard from == nil else { continue }
                    // Money over the whole history: the plain report's gross and refunds.
                    for line in try log.replay(at: "2026-02-20T00:00:00Z", profile: profile).revenue().lines {
                        #expect(rows.reduce(Money.zero) { $0 + ($1.revenue.lines.first { $0.currency == line.currency }?.gross ?? .zero) } == line.gross, "\(at)")
                        #expect(rows.reduce(Money.zero) { $0 + ($1.revenue.lines.first { $0.currency == line.currency }?.refunded ?? .zero) } == line.refunded, "\(at)")
                    }
                }
            }
        }
    }

    @Test func bucketsWithoutEventsShowZerosAndStocksCarryOver() throws {
        let log = try TestLog([
            line("1", "purchase", "a", "2026-01-05T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"a1","expires":"2026-02-05T00:00:00Z","price":"9.99","currency":"USD"}"#),
            line("3", "renewal", "a", "2026-02-05T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"a2","expires":"2026-03-05T00:00:00Z","price":"9.99","currency":"USD"}"#),
            line("4", "renewal", "a", "2026-03-05T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"a3","expires":"2026-04-05T00:00:00Z","price":"9.99","currency":"USD"}"#),
            line("2", "paywall_viewed", "b", "2026-03-10T00:00:00Z", #"{"context":"onboarding"}"#),
        ])
        let rows = try Self.totals(log, to: "2026-04-01T00:00:00Z").series(by: .month)!.rows
        #expect(rows.map { String($0.start.description.prefix(10)) } == ["2026-01-05", "2026-02-01", "2026-03-01"])
        // February: one renewal, nothing else.
        #expect(rows[1].counts.filter { $0.value != 0 } == ["renewal": 1] && rows[1].revenue.lines.map(\.gross) == [Money.parse("9.99")!])
        #expect(rows[1].funnel.steps.allSatisfy { $0.users == 0 && $0.rate == 0 } && rows[1].funnel.trialsStarted == 0)
        #expect(rows.map(\.revenue.activeSubscriptions) == [1, 1, 1])
        #expect(rows[2].counts["paywall_viewed"] == 1 && rows[0].counts["subscription_started"] == 1)
    }

    @Test func aOneUserLogDividesByNothing() throws {
        let log = try TestLog([line("1", "paywall_viewed", "solo", "2026-01-05T00:00:00Z", #"{"context":"onboarding"}"#)])
        let empty = try Self.totals(log, to: "2026-01-05T00:00:00Z", from: "2026-01-04T00:00:00Z").series(by: .week)!.rows
        #expect(empty.count == 1 && empty[0].counts.values.allSatisfy { $0 == 0 })
        for by in SeriesGranularity.allCases {
            for row in try Self.totals(log, to: "2026-01-20T00:00:00Z").series(by: by)!.rows {
                let rates = [row.revenue.churnRate, row.revenue.trialConversionRate] + row.funnel.steps.map(\.rate) + row.retention.periods.map(\.rate)
                #expect(rates.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
            }
        }
    }

    @Test func retentionCountsSubscribersStillSubscribedEachPeriodAfterTheirFirstPaidOne() throws {
        func paid(_ id: String, _ user: String, _ time: String, _ txn: String, expires: String, type: String = "purchase") -> String {
            line(id, type, user, time, #"{"product":"handz.pro.monthly","transaction":"\#(txn)","expires":"\#(expires)","price":"9.99","currency":"USD"}"#)
        }
        let log = try TestLog([
            // stays: three monthly periods paid; leaves: pays once, never renews.
            paid("1", "stays", "2026-01-10T00:00:00Z", "s1", expires: "2026-02-10T00:00:00Z"),
            paid("2", "stays", "2026-02-10T00:00:00Z", "s2", expires: "2026-03-10T00:00:00Z", type: "renewal"),
            paid("3", "stays", "2026-03-10T00:00:00Z", "s3", expires: "2026-04-10T00:00:00Z", type: "renewal"),
            paid("4", "leaves", "2026-01-20T00:00:00Z", "l1", expires: "2026-02-20T00:00:00Z"),
        ])
        let january = try Self.totals(log, to: "2026-04-01T00:00:00Z").series(by: .month)!.rows[0].retention
        #expect(january.subscribers == 2)
        // After one period (plus the unverified grace) stays renewed and leaves did not; after two,
        // stays only; a third period has not passed for anyone by 2026-04-01.
        #expect(january.periods.map(\.period) == [1, 2])
        #expect(january.periods.map(\.measured) == [2, 2] && january.periods.map(\.retained) == [1, 1])
    }

    @Test func theSeriesIsTheSameFromTheEventCacheOrTheLogAndInAnyNumberOfPartitions() throws {
        for (log, profile) in try Self.sampleLogs() {
            let a = try Self.totals(log, profile, to: "2026-03-01T00:00:00Z", partitions: 1, cache: false).series(by: .week)!.rows
            let b = try Self.totals(log, profile, to: "2026-03-01T00:00:00Z", partitions: 3, cache: true).series(by: .week)!.rows
            #expect(a == b, "\(profile.name)")
        }
    }
}
