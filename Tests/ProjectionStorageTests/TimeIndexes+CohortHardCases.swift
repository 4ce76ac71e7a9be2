import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The cohort series restarted at a midnight, on the cases a user of `funnel --by --from` meets:
/// a paywall seen on several days (a tap before the view on the same day), chains that start with
/// a tap or a started purchase and see the paywall days later, a trial that converts after the
/// start, paid starts again after an expiry, a refund, a revoke or a silent lapse, two paid starts
/// on one day, times written with an offset, and transfers (a chain of them, and one back). The
/// index must give the series pass's funnel and retention from every January midnight, when built
/// at once and when brought up by an overlay after the events came in three shuffled parts.
extension TimeIndexes {
    static let product = "handz.pro.monthly"

    static func purchase(_ id: String, _ user: String, _ time: String, expires: String, trial: Bool = false) -> String {
        let offer = trial ? #","offer":"free_trial""# : ""
        return line(id, "purchase", user, time,
                    #"{"product":"\#(product)","transaction":"\#(id)","expires":"\#(expires)","price":"\#(trial ? "0.00" : "9.99")","currency":"USD"\#(offer)}"#)
    }

    static func renewal(_ id: String, _ user: String, _ time: String, original: String, expires: String) -> String {
        line(id, "renewal", user, time,
             #"{"product":"\#(product)","transaction":"\#(id)","originalTransaction":"\#(original)","expires":"\#(expires)","price":"9.99","currency":"USD"}"#)
    }

    static func view(_ id: String, _ user: String, _ time: String, _ context: String = "home") -> String {
        line(id, "paywall_viewed", user, time, #"{"context":"\#(context)"}"#)
    }

    static func tap(_ id: String, _ user: String, _ time: String, _ context: String = "home") -> String {
        line(id, "paywall_cta_tapped", user, time, #"{"context":"\#(context)"}"#)
    }

    static func started(_ id: String, _ user: String, _ time: String) -> String {
        line(id, "purchase_started", user, time, #"{"product":"\#(product)"}"#)
    }

    static let hardCohortLines: [String] = [
        // Views on 5, 7 and 14 January in three contexts, buying a trial on the 14th that converts on the 21st.
        view("a1", "ua", "2026-01-05T10:00:00Z", "onboarding"), view("a2", "ua", "2026-01-07T11:00:00Z", "settings"),
        tap("a3", "ua", "2026-01-07T11:01:00Z", "settings"), view("a4", "ua", "2026-01-14T09:00:00Z", "history"),
        tap("a5", "ua", "2026-01-14T09:01:00Z", "history"), started("a6", "ua", "2026-01-14T09:02:00Z"),
        line("a7", "purchase_success", "ua", "2026-01-14T09:03:00Z", #"{"product":"\#(product)"}"#),
        purchase("a8", "ua", "2026-01-14T09:03:00Z", expires: "2026-01-21T09:03:00Z", trial: true),
        renewal("a9", "ua", "2026-01-21T09:03:00Z", original: "a8", expires: "2026-02-21T09:03:00Z"),
        // Views at midnight and a second before the next one, written with offsets.
        view("b1", "ub", "2026-01-12T02:00:00+02:00"), view("b2", "ub", "2026-01-12T18:59:59-05:00", "settings"),
        tap("b3", "ub", "2026-01-13T00:00:00Z", "settings"), view("b4", "ub", "2026-01-19T00:00:00.000001Z"),
        // A chain starting with a tap, and one with a started purchase, each seeing the paywall days later.
        tap("c1", "uc", "2026-01-06T10:00:00Z"), started("c2", "uc", "2026-01-06T10:01:00Z"),
        view("c3", "uc", "2026-01-09T10:00:00Z", "locked"), tap("c4", "uc", "2026-01-09T10:01:00Z", "locked"),
        started("c5", "uc", "2026-01-16T10:00:00Z"),
        started("d1", "ud", "2026-01-08T10:00:00Z"), view("d2", "ud", "2026-01-12T10:00:00Z"),
        purchase("d3", "ud", "2026-01-12T10:03:00Z", expires: "2026-02-12T10:03:00Z"),
        // Five days, each a tap before the view; the account deleted, a view a week later.
        tap("e1", "ue", "2026-01-05T08:00:00Z"), view("e2", "ue", "2026-01-05T09:00:00Z", "a"),
        tap("e3", "ue", "2026-01-06T08:00:00Z"), view("e4", "ue", "2026-01-06T09:00:00Z", "b"),
        tap("e5", "ue", "2026-01-07T08:00:00Z"), view("e6", "ue", "2026-01-07T09:00:00Z", "c"),
        started("e7", "ue", "2026-01-07T09:30:00Z"), line("e8", "account_deleted", "ue", "2026-01-11T00:00:00Z"),
        view("e9", "ue", "2026-01-19T00:00:00Z"),
        // Paid, expired, paid again a month later; a trial lapsed, then paid twice.
        purchase("f1", "uf", "2026-01-05T12:05:00Z", expires: "2026-02-05T12:05:00Z"),
        line("f2", "expiration", "uf", "2026-02-05T12:05:00Z"),
        purchase("f3", "uf", "2026-03-09T12:05:00Z", expires: "2026-04-09T12:05:00Z"),
        renewal("f4", "uf", "2026-04-09T12:05:00Z", original: "f3", expires: "2026-05-09T12:05:00Z"),
        purchase("g1", "ug", "2026-01-19T08:00:00Z", expires: "2026-01-26T08:00:00Z", trial: true),
        line("g2", "expiration", "ug", "2026-01-26T08:00:00Z"),
        purchase("g3", "ug", "2026-01-28T08:00:00Z", expires: "2026-02-28T08:00:00Z"),
        // Refunded on the day and bought again; revoked and bought again a week later; a silent lapse and a late renewal.
        purchase("h1", "uh", "2026-01-10T09:00:00Z", expires: "2026-02-10T09:00:00Z"),
        line("h2", "refund", "uh", "2026-01-10T11:00:00Z", #"{"transaction":"h1","price":"9.99","currency":"USD"}"#),
        purchase("h3", "uh", "2026-01-10T15:00:00Z", expires: "2026-02-10T15:00:00Z"),
        renewal("h4", "uh", "2026-02-10T15:00:00Z", original: "h3", expires: "2026-03-10T15:00:00Z"),
        purchase("i1", "ui", "2026-01-13T10:00:00Z", expires: "2026-02-13T10:00:00Z"),
        line("i2", "revoke", "ui", "2026-01-20T10:00:00Z"),
        purchase("i3", "ui", "2026-01-27T10:00:00Z", expires: "2026-02-27T10:00:00Z"),
        purchase("j1", "uj", "2026-01-08T10:00:00Z", expires: "2026-01-15T10:00:00Z"),
        renewal("j2", "uj", "2026-01-22T10:00:00Z", original: "j1", expires: "2026-02-22T10:00:00Z"),
        // A subscription handed on k → l → m, then back to k; a trial handed on before it converts.
        purchase("k1", "uk", "2026-01-05T12:00:00Z", expires: "2026-02-05T12:00:00Z"),
        line("k2", "transfer", "uk", "2026-01-12T12:00:00Z", #"{"to":"ul","transaction":"k1"}"#),
        line("k3", "transfer", "ul", "2026-01-19T12:00:00Z", #"{"to":"um","transaction":"k1"}"#),
        renewal("k4", "um", "2026-02-05T12:00:00Z", original: "k1", expires: "2026-03-05T12:00:00Z"),
        line("k5", "transfer", "um", "2026-02-16T12:00:00Z", #"{"to":"uk","transaction":"k1"}"#),
        view("k6", "ul", "2026-01-13T12:00:00Z"), view("k7", "um", "2026-01-26T12:00:00Z"),
        purchase("n1", "un", "2026-01-13T09:05:00Z", expires: "2026-01-20T09:05:00Z", trial: true),
        line("n2", "transfer", "un", "2026-01-15T09:00:00Z", #"{"to":"uo","transaction":"n1"}"#),
        view("n3", "uo", "2026-01-14T09:00:00Z"),
        renewal("n4", "uo", "2026-01-20T09:05:00Z", original: "n1", expires: "2026-02-20T09:05:00Z"),
        purchase("n5", "uo", "2026-03-02T09:00:00Z", expires: "2026-04-02T09:00:00Z"),
    ]

    @Test func theHardCohortCasesFromEveryMidnightAreTheSeriesPassesWhenBuiltAtOnce() throws {
        let counted = try Self.expectSeriesFromEveryMidnight(Self.hardCohortLines, end: ReportSummaries.at("2026-06-01T00:00:00Z"), "hard cohort cases").counted
        // Every user with a view on or after a day counts once from it: on 1 January all eight viewers.
        #expect(counted[SeriesBuckets.day(of: Self.start)] == 8, "series from 1 January: \(counted)")
    }

    @Test func theHardCohortCasesFromEveryMidnightAreTheSeriesPassesAfterShuffledAppends() throws {
        let seed: UInt64 = 2026
        var rng = SplitMix64(seed: seed)
        var lines = Self.hardCohortLines
        for i in stride(from: lines.count - 1, to: 0, by: -1) {
            lines.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        let third = lines.count / 3
        let log = try TestLog(Array(lines[..<third]))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let end = ReportSummaries.at("2026-06-01T00:00:00Z")
        _ = try store.timeIndex()
        var refreshed: TimeIndex?
        for part in [lines[third..<(2 * third)], lines[(2 * third)...]] {
            _ = try ReportSummaries.append(Array(part), to: log)
            let (index, refresh) = try store.refreshedTimeIndex(overlayLimit: nil)
            #expect(refresh.update != nil && !refresh.rebuilt, "seed \(seed): brought up by an overlay, not rebuilt")
            refreshed = index
        }
        let index = try #require(refreshed)
        for day in SeriesBuckets.day(of: Self.start)..<(SeriesBuckets.day(of: Self.start) + 31) {
            let from = SeriesBuckets.midnight(day)
            var o = ReplayOptions(profile: .handz, asOf: end)
            o.from = from
            o.to = end
            let totals = try SeriesReplay.run(directory: log.path, options: o)
            for by in [SeriesGranularity.day, .week, .month] {
                let series = try #require(totals.series(by: by, from: from))
                let buckets = try #require(SeriesBuckets(by: by, from: from, to: end))
                let indexed = try #require(try index.series(buckets, from: from, funnel: true, profile: .handz))
                #expect(indexed.rows.map(\.funnel) == series.rows.map(\.funnel), "seed \(seed): funnel by \(by) from \(from)")
                #expect(indexed.rows.map(\.retention) == series.rows.map(\.retention), "seed \(seed): retention by \(by) from \(from)")
            }
        }
    }
}
