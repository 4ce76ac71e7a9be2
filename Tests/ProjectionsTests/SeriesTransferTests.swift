import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections
@testable import ProjectionStorage

/// A series' stocks at each bucket's end are those of a replay as of that instant when
/// subscriptions change hands: a recipient holds what it received from the transfer on, even
/// before its own first event, and only while the transfer is still its sender's last one.
@Suite struct SeriesTransfers {
    static func event(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String) -> String {
        #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
    }

    static func purchase(_ id: String, _ user: String, _ time: String, expires: String) -> String {
        event(id, "purchase", user, time, #"{"product":"handz.pro.monthly","transaction":"\#(id)_t","expires":"\#(expires)","price":"9.99","currency":"USD"}"#)
    }

    @Test func aSeriesStocksAtEachBucketEndAreAReplaysAsOfThatInstantWhenSubscriptionsChangeHands() throws {
        let log = try TestLog([
            // Received on 5 January; the recipient's own first event comes on 20 January.
            Self.purchase("1", "old", "2026-01-02T00:00:00Z", expires: "2026-03-02T00:00:00Z"),
            Self.event("2", "transfer", "old", "2026-01-05T00:00:00Z", #"{"to":"new"}"#),
            Self.event("3", "paywall_viewed", "new", "2026-01-20T00:00:00Z", #"{"context":"home"}"#),
            // Handed to b on 6 January, then (bought again) to c on 15 January: b holds it no more.
            Self.purchase("4", "a", "2026-01-03T00:00:00Z", expires: "2026-03-03T00:00:00Z"),
            Self.event("5", "transfer", "a", "2026-01-06T00:00:00Z", #"{"to":"b"}"#),
            Self.event("6", "paywall_viewed", "b", "2026-01-04T00:00:00Z", #"{"context":"home"}"#),
            Self.purchase("7", "a", "2026-01-12T00:00:00Z", expires: "2026-03-12T00:00:00Z"),
            Self.event("8", "transfer", "a", "2026-01-15T00:00:00Z", #"{"to":"c"}"#),
            Self.event("9", "paywall_viewed", "c", "2026-01-25T00:00:00Z", #"{"context":"home"}"#),
        ])
        let end = Timestamp.parse("2026-02-01T00:00:00Z")!
        var o = ReplayOptions(profile: .handz, asOf: end)
        o.to = end
        let totals = try SeriesReplay.run(directory: log.path, options: o)
        let series = try #require(totals.series(by: .day, from: totals.firstEvent))
        var held = 0
        for row in series.rows {
            let replay = try log.replay(at: row.end.description).revenue()
            #expect(row.revenue.activeSubscriptions == replay.activeSubscriptions && row.revenue.churnedSubscribers == replay.churnedSubscribers
                    && row.revenue.lines.map(\.mrr).reduce(.zero, +) == replay.lines.map(\.mrr).reduce(.zero, +),
                    "stocks at \(row.end): series \(row.revenue.activeSubscriptions) active, replay \(replay.activeSubscriptions)")
            held = max(held, row.revenue.activeSubscriptions)
        }
        #expect(held == 3, "new's, b's and a's second run at once, 12 to 15 January")
    }
}
