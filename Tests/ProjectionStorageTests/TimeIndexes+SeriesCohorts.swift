import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// A series with a start restarts the funnel and retention cohorts there (as a series pass with
/// `from` does): each user counts once, in the cohort of their first paywall view and of their
/// first paid start on or after the start. The index keeps them by window day (`cohortFunnel`,
/// retention keys under the day of the paid start before); these logs make the cases a random log
/// rarely does, read by daily and weekly series from each midnight of the span.
extension TimeIndexes {
    static func line(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String = "{}") -> String {
        #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
    }

    /// The funnel and retention series from every midnight of January 2026 to `end`, by week and
    /// by day, from the index and from a series pass; returns the index and the users counted in
    /// the funnel cohorts of the series from each day, as the index gives them.
    static func expectSeriesFromEveryMidnight(_ lines: [String], end: Timestamp, _ what: String) throws -> (index: TimeIndex, counted: [Int64: Int]) {
        let log = try TestLog(lines)
        let (index, _) = try ProjectionStore(logDirectory: log.path, profile: .handz).timeIndex()
        Self.expectOnlyCohortKeysASeriesSums(index, what)
        var counted: [Int64: Int] = [:]
        for day in SeriesBuckets.day(of: start)..<(SeriesBuckets.day(of: start) + 31) {
            let from = SeriesBuckets.midnight(day)
            var o = ReplayOptions(profile: .handz, asOf: end)
            o.from = from
            o.to = end
            let totals = try SeriesReplay.run(directory: log.path, options: o)
            for by in [SeriesGranularity.day, .week] {
                let series = try #require(totals.series(by: by, from: from))
                let buckets = try #require(SeriesBuckets(by: by, from: from, to: end))
                let indexed = try #require(try index.series(buckets, from: from, funnel: true, profile: .handz))
                #expect(indexed.rows.map(\.funnel) == series.rows.map(\.funnel), "\(what): funnel by \(by) from \(from)")
                #expect(indexed.rows.map(\.retention) == series.rows.map(\.retention), "\(what): retention by \(by) from \(from)")
                if by == .day { counted[day] = indexed.rows.reduce(0) { $0 + $1.funnel.steps.first.map(\.users)! } }
            }
        }
        return (index, counted)
    }

    /// The daily series of `index` from midnight `from` to `end`, funnel and retention cohorts included.
    static func dailySeries(_ index: TimeIndex, from: Timestamp, end: Timestamp) throws -> LedgerSeries {
        let buckets = try #require(SeriesBuckets(by: .day, from: from, to: end))
        return try #require(try index.series(buckets, from: from, funnel: true, profile: .handz))
    }

    @Test func aChainWhoseFirstViewIsDaysAfterItsStartCountsOnceInASeriesFromADayBetween() throws {
        // The user starts a purchase on 2 January without a view, sees the paywall on the 6th and taps it on the 9th.
        let lines = [
            Self.line("a1", "purchase_started", "u_a", "2026-01-02T10:00:00Z", #"{"product":"handz.pro.monthly"}"#),
            Self.line("a2", "paywall_viewed", "u_a", "2026-01-06T09:00:00Z", #"{"context":"settings"}"#),
            Self.line("a3", "paywall_cta_tapped", "u_a", "2026-01-09T09:00:00Z", #"{"context":"settings"}"#),
        ]
        let counted = try Self.expectSeriesFromEveryMidnight(lines, end: ReportSummaries.at("2026-02-01T00:00:00Z"), "a view days after the chain's start").counted
        // From 1 to 6 January the user is in the cohort of the 6th (once); from the 7th on the view is before the start.
        for (day, users) in counted {
            let from = SeriesBuckets.midnight(day)
            #expect(users == (from <= ReportSummaries.at("2026-01-06T00:00:00Z") ? 1 : 0), "series from \(from): \(users) users in the funnel cohorts")
        }
    }

    @Test func aSeriesFromADayCountsTheRetentionOfTheFirstPaidStartFromThatDayOn() throws {
        // Two paid starts a month apart (the first expired in between), and a second one on the second's day.
        let lines = [
            Self.line("b1", "purchase", "u_b", "2026-01-03T10:00:00Z",
                      #"{"product":"handz.pro.monthly","transaction":"b1_t","expires":"2026-01-10T10:00:00Z","price":"9.99","currency":"USD"}"#),
            Self.line("b2", "expiration", "u_b", "2026-01-10T10:00:00Z"),
            Self.line("b3", "purchase", "u_b", "2026-01-20T10:00:00Z",
                      #"{"product":"handz.pro.monthly","transaction":"b3_t","expires":"2026-02-20T10:00:00Z","price":"9.99","currency":"USD"}"#),
            Self.line("b4", "expiration", "u_b", "2026-01-20T12:00:00Z"),
            Self.line("b5", "purchase", "u_b", "2026-01-20T14:00:00Z",
                      #"{"product":"handz.pro.monthly","transaction":"b5_t","expires":"2026-02-20T14:00:00Z","price":"9.99","currency":"USD"}"#),
        ]
        let end = ReportSummaries.at("2026-06-01T00:00:00Z")
        let index = try Self.expectSeriesFromEveryMidnight(lines, end: end, "paid starts on 3 and 20 January").index
        // From 4 January on, the cohort is the 20th's: one subscriber there, none on the 3rd.
        let series = try Self.dailySeries(index, from: ReportSummaries.at("2026-01-04T00:00:00Z"), end: end)
        let subscribers = series.rows.filter { $0.retention.subscribers > 0 }.map { ($0.start, $0.retention.subscribers) }
        #expect(subscribers.map(\.0) == [ReportSummaries.at("2026-01-20T00:00:00Z")] && subscribers.map(\.1) == [1], "cohorts from 4 January: \(subscribers)")
    }

    @Test func aTapOnAnotherPaywallDaysBeforeTheFirstViewStaysInTheViewsCohortOfASeriesFromTheTapsDay() throws {
        // The user taps an onboarding paywall's button on 2 January (no view yet) and first sees the settings paywall on the 6th.
        let lines = [
            Self.line("c1", "paywall_cta_tapped", "u_c", "2026-01-02T10:00:00Z", #"{"context":"onboarding"}"#),
            Self.line("c2", "paywall_viewed", "u_c", "2026-01-06T09:00:00Z", #"{"context":"settings"}"#),
        ]
        let end = ReportSummaries.at("2026-02-01T00:00:00Z")
        let index = try Self.expectSeriesFromEveryMidnight(lines, end: end, "a tap on another paywall days before the first view").index
        // From 2 January the cohort of the 6th names both paywalls (the chain from the tap); from the 3rd, the settings one only.
        for (from, contexts) in [("2026-01-02T00:00:00Z", ["onboarding", "settings"]), ("2026-01-03T00:00:00Z", ["settings"])] {
            let series = try Self.dailySeries(index, from: ReportSummaries.at(from), end: end)
            let cohorts = series.rows.filter { !$0.funnel.byContext.isEmpty }.map { ($0.start, $0.funnel.byContext.keys.sorted()) }
            #expect(cohorts.map(\.0) == [ReportSummaries.at("2026-01-06T00:00:00Z")] && cohorts.map(\.1) == [contexts],
                    "series from \(from): paywalls by cohort \(cohorts)")
        }
    }

    @Test func aLaterCohortsFirstCheckIsJudgedAtItsOwnInstantThoughTheEarlierCohortsNextCheckFallsAfterIt() throws {
        // Two users pay on 3 January (expired by the 10th) and again on the 20th: the 20th's first monthly
        // check (21 February, after a day's grace) comes before the 3rd's second one (4 March). One is
        // still paid then (refunded on 27 February); the other expired on 20 February and pays again on
        // the 28th, which must not make them kept at the earlier check.
        func purchase(_ id: String, _ user: String, _ time: String, expires: String) -> String {
            Self.line(id, "purchase", user, time,
                      #"{"product":"handz.pro.monthly","transaction":"\#(id)_t","expires":"\#(expires)","price":"9.99","currency":"USD"}"#)
        }
        var lines: [String] = []
        for user in ["u_d", "u_f"] {
            lines += [purchase("\(user)1", user, "2026-01-03T10:00:00Z", expires: "2026-01-10T10:00:00Z"),
                      Self.line("\(user)2", "expiration", user, "2026-01-10T10:00:00Z")]
        }
        lines += [
            purchase("u_d3", "u_d", "2026-01-20T10:00:00Z", expires: "2026-03-20T10:00:00Z"),
            Self.line("u_d4", "refund", "u_d", "2026-02-27T10:00:00Z", #"{"transaction":"u_d3_t"}"#),
            purchase("u_f3", "u_f", "2026-01-20T10:00:00Z", expires: "2026-02-20T10:00:00Z"),
            Self.line("u_f4", "expiration", "u_f", "2026-02-20T10:00:00Z"),
            purchase("u_f5", "u_f", "2026-02-28T10:00:00Z", expires: "2026-03-28T10:00:00Z"),
        ]
        let end = ReportSummaries.at("2026-06-01T00:00:00Z")
        let index = try Self.expectSeriesFromEveryMidnight(lines, end: end, "a later cohort's check before the earlier cohort's next").index
        // From 4 January the cohort is the 20th's: both measured at its first month, one kept.
        let series = try Self.dailySeries(index, from: ReportSummaries.at("2026-01-04T00:00:00Z"), end: end)
        let first = series.rows.filter { $0.retention.subscribers > 0 }.map { ($0.start, $0.retention.periods.first.map { [$0.measured, $0.retained] }) }
        #expect(first.map(\.0) == [ReportSummaries.at("2026-01-20T00:00:00Z")] && first.map(\.1) == [[2, 1]], "cohorts from 4 January, first month: \(first)")
    }

    /// Every cohort key of `index` is one a series from some midnight sums: a series from D reads
    /// window days before D with a view (or paid) day from D on, so a key without a view, or whose
    /// view or paid day is not after its window day, would be kept for nothing. Returns how many
    /// funnel cohort keys of chains after a user's first the index keeps.
    @discardableResult
    static func expectOnlyCohortKeysASeriesSums(_ index: TimeIndex, _ what: String) -> Int {
        var kept = 0
        for kind in [TimeKey.Kind.cohortFunnel, .retentionSubscribers, .retentionMeasured, .retentionKept, .retentionDue] {
            for k in index.keyRange(kind) {
                let (windowDay, day, _) = index.keys[k].unpacked
                #expect(day != TimeKey.noViewDay && day > windowDay, "\(what): \(kind) key of window day \(windowDay) and day \(day)")
                if kind == .cohortFunnel { kept += 1 }
            }
        }
        return kept
    }

    @Test func theIndexOfARandomLogKeepsOnlyCohortKeysASeriesFromAMidnightSums() throws {
        for seed: UInt64 in [5, 17] {
            var rng = SplitMix64(seed: seed)
            let base = Array(ReportSummaries.base.prefix(300 + Int(rng.next() % 300)))
            let log = try TestLog(base)
            try ReportSummaries.append(ReportSummaries.randomEvents(&rng, round: 0, count: 80, sent: base) + Self.moreEvents(&rng, round: 0, count: 80), to: log)
            let (index, _) = try ProjectionStore(logDirectory: log.path, profile: .handz).timeIndex()
            let kept = Self.expectOnlyCohortKeysASeriesSums(index, "seed \(seed)")
            #expect(kept > 0, "seed \(seed): the log keeps funnel cohort keys of chains after a user's first")
        }
    }
}

extension TimeIndexes {
    /// A file's keys are checked at reading (a forged file is refused): a cohort key is one a build
    /// keeps only when a series can sum it, so one with no view day, or a view or paid day not after
    /// its window day, is not a valid key.
    @Test func aCohortKeyASeriesNeverSumsIsNotAValidKey() {
        let day: Int64 = 20_500
        for kind in [TimeKey.Kind.cohortFunnel, .windowFunnel] {
            #expect(TimeKey(kind: kind, number: TimeKey.pack(day, day + 3, 2)).isValid, "\(kind): a view after its window day")
            #expect(TimeKey(kind: kind, number: TimeKey.pack(day, day, 2)).isValid == (kind == .windowFunnel), "\(kind): a view on its window day")
            #expect(TimeKey(kind: kind, number: TimeKey.pack(day, TimeKey.noViewDay, 2)).isValid == (kind == .windowFunnel), "\(kind): no view")
        }
        for kind in [TimeKey.Kind.retentionSubscribers, .retentionMeasured, .retentionKept, .retentionDue] {
            let period = kind == .retentionSubscribers ? 0 : 3
            #expect(TimeKey(kind: kind, number: TimeKey.pack(TimeKey.beforeAnyDay, day, period)).isValid, "\(kind): a first paid start")
            #expect(TimeKey(kind: kind, number: TimeKey.pack(day - 30, day, period)).isValid, "\(kind): a later paid start")
            #expect(!TimeKey(kind: kind, number: TimeKey.pack(day, day, period)).isValid, "\(kind): under its own paid day")
            #expect(!TimeKey(kind: kind, number: TimeKey.pack(day + 1, day, period)).isValid, "\(kind): under a later day")
        }
    }
}
