import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// `counts`, `funnel` and `revenue` by segment (`UserSegment`): each segment's figures add up to
/// the report's total, alone and in a series, on random logs; and a story worked by hand.
@Suite struct SegmentReports {
    static func t(_ s: String) -> Timestamp { Timestamp.parse(s)! }

    /// A random log (`AnalystModels.randomLog`) plus purchases and renewals that name a store and a country.
    static func randomLog(seed: UInt64) throws -> TestLog {
        let log = try AnalystModels.randomLog(seed: seed)
        var rng = SplitMix64(seed: seed &+ 99)
        func pick(_ n: UInt64) -> Int { Int(rng.next() % n) }
        var lines: [String] = []
        for i in 0..<60 {
            let time = TimeIndexes.start + .init(nanoseconds: Int64(pick(200 * 86_400)) * 1_000_000_000)
            let u = pick(3) == 0 ? "n_\(pick(40))" : "u_\(pick(150))"
            let store = ["app_store", "play_store", "stripe"][pick(3)], country = ["US", "DE", "JP", "FR"][pick(4)]
            let type = pick(2) == 0 ? "purchase" : "renewal"
            let offer = type == "renewal" ? #""price":"9.99""# : [#""price":"9.99""#, #""offer":"intro","price":"9.99""#, #""offer":"free_trial","price":"0.00""#][pick(3)]
            lines.append(#"{"id":"sg\#(i)","type":"\#(type)","user":"\#(u)","time":"\#(time)","data":{"product":"handz.pro.monthly","transaction":"sg\#(i)_t","expires":"\#(time + .days(30))",\#(offer),"currency":"USD","store":"\#(store)","country":"\#(country)"}}"#)
        }
        _ = try ReportSummaries.append(lines, to: log)
        return log
    }

    /// The sum of several reports as the partitions' merge adds them (counts and money summed, rates recomputed).
    static func sum(_ parts: [LedgerSnapshot]) -> (counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport) {
        (LedgerSnapshot.mergingCounts(parts.map { $0.counts() }), FunnelReport.merging(parts.map { $0.funnel() }),
         RevenueReport.merging(parts.map { $0.revenue() }))
    }

    @Test func everySegmentsReportsAddUpToTheWholeReportAtRandomInstantsAndWindows() throws {
        for seed: UInt64 in [4, 31] {
            let log = try Self.randomLog(seed: seed)
            var rng = SplitMix64(seed: seed)
            for segment in Segment.allCases {
                let x = TimeIndexes.randomInstant(&rng), y = TimeIndexes.randomInstant(&rng)
                let (a, b) = (min(x, y), max(x, y))
                var options = ReplayOptions(profile: .handz, asOf: b)
                if rng.next() % 2 == 0 { (options.from, options.to) = (a, b) }
                let whole = try Replay.run(directory: log.path, options: options)
                let parts = try whole.segmented(by: segment, directory: log.path, partitions: 2)
                #expect(Set(parts.map(\.value)).count == parts.count, "seed \(seed): \(segment) values once each")
                #expect(parts.reduce(0) { $0 + $1.snapshot.userIDs.count } == whole.userIDs.count, "seed \(seed): \(segment) every user once")
                let s = Self.sum(parts.map(\.snapshot))
                #expect(s.counts == whole.counts(), "seed \(seed): \(segment) counts at \(b)")
                #expect(s.funnel == whole.funnel(), "seed \(seed): \(segment) funnel at \(b)")
                #expect(s.revenue == whole.revenue(), "seed \(seed): \(segment) revenue at \(b)")
                if segment == .store || segment == .country {
                    #expect(parts.count >= 3, "seed \(seed): \(segment) has values besides unknown: \(parts.map(\.value))")
                }
            }
        }
    }

    @Test func aSeriesBySegmentIsThePlainSeriesAndItsSegmentsAddUpBucketByBucket() throws {
        for seed: UInt64 in [6, 13] {
            let log = try Self.randomLog(seed: seed)
            var rng = SplitMix64(seed: seed)
            for segment in Segment.allCases {
                let end = TimeIndexes.randomInstant(&rng) + .days(60)
                var options = ReplayOptions(profile: .handz, asOf: end)
                options.to = end
                options.partitions = 2
                let plain = try SeriesReplay.run(directory: log.path, options: options)
                let split = try SeriesReplay.run(directory: log.path, options: options, segment: segment)
                for by in [SeriesGranularity.week, .month] {
                    let whole = try #require(plain.series(by: by))
                    #expect(split.total.series(by: by)?.rows == whole.rows, "seed \(seed): \(segment) by \(by): the total is the plain series")
                    let parts = split.segments.values.compactMap { $0.series(by: by, from: whole.buckets.from) }
                    #expect(parts.count == split.segments.count && parts.allSatisfy { $0.rows.count == whole.rows.count })
                    let merged = try #require(LedgerSeries.merging(parts))
                    for (m, w) in zip(merged.rows, whole.rows) {
                        #expect(m.counts == w.counts, "seed \(seed): \(segment) by \(by): counts of \(w.start)")
                        #expect(m.revenue == w.revenue, "seed \(seed): \(segment) by \(by): revenue of \(w.start)")
                        #expect(m.funnel == w.funnel && m.retention == w.retention, "seed \(seed): \(segment) by \(by): funnel of \(w.start)")
                    }
                }
            }
        }
    }

    /// Handz (AnalystStories.handz): u1 a trial from the App Store in the US that converts, u2 a
    /// Play Store purchase in Germany refunded, u3 a trial without a store that is abandoned, u4 a visitor.
    @Test func handzByStoreOfferAndProductWorkedByHand() throws {
        let log = try TestLog(AnalystStories.handz)
        let whole = try log.replay(at: "2026-03-01T00:00:00Z")
        func parts(_ s: Segment) throws -> [String: LedgerSnapshot] {
            Dictionary(uniqueKeysWithValues: try whole.segmented(by: s, directory: log.path).map { ($0.value, $0.snapshot) })
        }
        let store = try parts(.store)
        #expect(store.keys.sorted() == ["app_store", "play_store", "unknown"])
        // u1's renewal of 9.99 is the App Store's; u2's 9.99 was refunded; u3's trial booked nothing.
        #expect(store["app_store"]?.revenue().lines.map { "\($0.currency) \($0.gross) \($0.refunded)" } == ["USD 9.99 0.00"])
        #expect(store["play_store"]?.revenue().lines.map { "\($0.currency) \($0.gross) \($0.refunded)" } == ["USD 9.99 9.99"])
        #expect(store["unknown"]?.revenue().lines.isEmpty == true)
        // u3 and u4 (no store): one paywall view (u4's); u2's view is the Play Store's.
        #expect(store["unknown"]?.counts()["paywall_viewed"] == 1 && store["play_store"]?.counts()["paywall_viewed"] == 1)
        #expect(store["app_store"]?.counts()["trial_converted"] == 1 && store["unknown"]?.counts()["trial_started"] == 1)

        let offer = try parts(.offer)
        // free_trial: u1 and u3, one converted; none: u2 (a plain purchase) and u4 (never bought).
        #expect(offer.keys.sorted() == ["free_trial", "none"])
        let trials = try #require(offer["free_trial"]).funnel()
        #expect((trials.trialsStarted, trials.trialsConverted) == (2, 1))
        #expect(offer["none"]?.funnel().steps.first?.users == 2 && offer["none"]?.userIDs.sorted() == ["u2", "u4"])

        let product = try parts(.product)
        // u1, u2, u3 held handz.pro.monthly; u4 never subscribed. u1 (cancelled, ran out on 02-08) and u2 (refunded) are churned.
        #expect(product["none"]?.userIDs == ["u4"])
        let monthly = try #require(product["handz.pro.monthly"]).revenue()
        #expect((monthly.activeSubscriptions, monthly.churnedSubscribers) == (0, 2))
        #expect(monthly.lines.map { "\($0.gross) \($0.refunded)" } == ["19.98 9.99"])
    }
}
