import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The retention checks measured are read from the paid starts kept by when they fall due
/// (`retentionDue`), each period's check the due instant shifted by whole months from the paid
/// day's midnight; a start whose checks fall past 2116 (out of the range kept by due instant, a
/// log accepts times up to 2200) keeps them one by one (`retentionMeasured`). Series from
/// midnights around each start, ending as of many instants, are the series pass's either way.
extension TimeIndexes {
    @Test func retentionChecksReadFromWhenTheStartsFallDueOrKeptOneByOneAreTheSeriesPasses() throws {
        func purchase(_ id: String, _ user: String, _ time: String, _ product: String, expires: String) -> String {
            Self.line(id, "purchase", user, time,
                      #"{"product":"\#(product)","transaction":"\#(id)_t","expires":"\#(expires)","price":"9.99","currency":"USD"}"#)
        }
        let lines = [
            // The 31st (each later month clamped to its last day), at two times of the day.
            purchase("a1", "u_a", "2026-01-31T10:00:00Z", "handz.pro.monthly", expires: "2026-02-28T10:00:00Z"),
            purchase("b1", "u_b", "2026-01-31T23:30:00Z", "handz.pro.monthly", expires: "2026-02-28T23:30:00Z"),
            // Past 2116: out of the range kept by due instant.
            purchase("d1", "u_d", "2150-03-05T10:00:00Z", "handz.pro.monthly", expires: "2150-04-05T10:00:00Z"),
        ]
        let log = try TestLog(lines)
        let (index, _) = try ProjectionStore(logDirectory: log.path, profile: .handz).timeIndex()
        // Both ways are taken: the starts of 31 January by due instant, the one of 2150 one by one.
        let due = index.keyRange(.retentionDue).map { index.keys[$0].unpacked }
        let oneByOne = Set(index.keyRange(.retentionMeasured).map { index.keys[$0].unpacked.other })
        #expect(due.map(\.other) == [SeriesBuckets.day(of: ReportSummaries.at("2026-01-31T00:00:00Z"))] && due.map(\.small) == [1],
                "keys by due instant (paid day, billing months): \(due)")
        #expect(oneByOne == [SeriesBuckets.day(of: ReportSummaries.at("2150-03-05T00:00:00Z"))], "days kept one by one: \(oneByOne.sorted())")
        var compared = 0
        for (from, ends) in [("2026-01-31T00:00:00Z", ["2026-03-01T00:00:00Z", "2026-03-31T10:00:00Z", "2026-03-31T23:29:59Z",
                                                       "2026-04-30T10:00:01Z", "2027-02-02T00:00:00Z"]),
                             ("2026-01-30T00:00:00Z", ["2026-02-28T10:00:00Z", "2026-05-01T00:00:00Z"]),
                             ("2150-03-05T00:00:00Z", ["2150-04-06T10:00:00Z", "2150-07-06T09:00:00Z", "2151-04-07T00:00:00Z"])] {
            for end in ends.map(ReportSummaries.at) {
                var o = ReplayOptions(profile: .handz, asOf: end)
                o.from = ReportSummaries.at(from)
                o.to = end
                let totals = try SeriesReplay.run(directory: log.path, options: o)
                for by in [SeriesGranularity.day, .month] {
                    let series = try #require(totals.series(by: by, from: o.from))
                    let buckets = try #require(SeriesBuckets(by: by, from: ReportSummaries.at(from), to: end))
                    let indexed = try #require(try index.series(buckets, from: o.from, funnel: true, profile: .handz))
                    #expect(indexed.rows.map(\.retention) == series.rows.map(\.retention), "retention by \(by) from \(from) to \(end)")
                    compared += indexed.rows.reduce(0) { $0 + $1.retention.periods.reduce(0) { $0 + $1.measured } }
                }
            }
        }
        // Checks were measured in the series compared (not only empty cohorts).
        #expect(compared > 0)
    }
}
