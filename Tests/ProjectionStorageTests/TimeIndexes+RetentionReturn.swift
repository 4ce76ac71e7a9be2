import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// A subscriber who comes back on a shorter plan after a check of an earlier start was done: the
/// new start's checks fall before every check of the earlier one still to do, and are still each
/// done once, in time order among them.
extension TimeIndexes {
    @Test func aReturningSubscribersChecksBeforeEveryPendingCheckAreEachDone() throws {
        func purchase(_ id: String, _ time: String, _ product: String, expires: String) -> String {
            Self.line(id, "purchase", "u_r", time,
                      #"{"product":"\#(product)","transaction":"\#(id)_t","expires":"\#(expires)","price":"9.99","currency":"USD"}"#)
        }
        // (tomo: a yearly and a monthly plan.) A year from January 2020, its first check done in
        // January 2021; back in March 2021 monthly, its checks from April 2021 on, before the
        // yearly start's second (January 2022); paid to June 2022.
        let log = try TestLog([
            purchase("y1", "2020-01-15T10:00:00Z", "tomo.pro.yearly", expires: "2021-01-15T10:00:00Z"),
            purchase("m1", "2021-03-01T10:00:00Z", "tomo.pro.monthly", expires: "2022-06-01T10:00:00Z"),
        ], profile: .tomo)
        let (index, _) = try ProjectionStore(logDirectory: log.path, profile: .tomo).timeIndex()
        let monthlyDay = SeriesBuckets.day(of: ReportSummaries.at("2021-03-01T00:00:00Z"))
        let kept = index.keyRange(.retentionKept).map { index.keys[$0].unpacked }.filter { $0.other == monthlyDay }.map(\.small)
        #expect(kept.sorted() == Array(1...LedgerSeries.retentionPeriods), "periods kept of the monthly start: \(kept.sorted())")
    }
}
