import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// A chain taken out under its own window day is kept as it stands at that day's end (its changes
/// on that day as one, at its first instant), and the overall funnel as what it reached beyond
/// its contexts. These logs move a chain several times within a day and across contexts; every
/// window from a midnight of the span, asked as of every few hours (before its start too), is
/// the windowed replay's funnel.
extension TimeIndexes {
    @Test func aWindowFunnelFromEveryMidnightAsOfEveryFewHoursIsTheWindowedReplaysBeforeItsStartToo() throws {
        let lines = [
            // Two chains: four steps within 10 January, then a view and a tap on the 14th.
            Self.line("a1", "paywall_viewed", "u_a", "2026-01-10T08:00:00Z", #"{"context":"settings"}"#),
            Self.line("a2", "paywall_cta_tapped", "u_a", "2026-01-10T11:00:00Z", #"{"context":"settings"}"#),
            Self.line("a3", "purchase_started", "u_a", "2026-01-10T14:00:00Z", #"{"product":"handz.pro.monthly"}"#),
            Self.line("a4", "purchase_success", "u_a", "2026-01-10T17:00:00Z", #"{"product":"handz.pro.monthly"}"#),
            Self.line("a5", "paywall_viewed", "u_a", "2026-01-14T09:00:00Z", #"{"context":"history"}"#),
            Self.line("a6", "paywall_cta_tapped", "u_a", "2026-01-14T10:00:00Z", #"{"context":"history"}"#),
            // Two contexts on one day, overall further than either: a view in one, a tap in another.
            Self.line("b1", "paywall_viewed", "u_b", "2026-01-11T08:00:00Z", #"{"context":"onboarding"}"#),
            Self.line("b2", "paywall_viewed", "u_b", "2026-01-11T12:00:00Z", #"{"context":"settings"}"#),
            Self.line("b3", "paywall_cta_tapped", "u_b", "2026-01-11T13:00:00Z", #"{"context":"onboarding"}"#),
            Self.line("b4", "purchase_started", "u_b", "2026-01-12T13:00:00Z", #"{"product":"handz.pro.monthly"}"#),
            // A tap without a view (a context at step 0), then a view the next day.
            Self.line("c1", "paywall_cta_tapped", "u_c", "2026-01-12T08:00:00Z", #"{"context":"history"}"#),
            Self.line("c2", "paywall_viewed", "u_c", "2026-01-13T08:00:00Z", #"{"context":"history"}"#),
        ]
        let log = try TestLog(lines)
        let (index, _) = try ProjectionStore(logDirectory: log.path, profile: .handz).timeIndex()
        let end = ReportSummaries.at("2026-01-20T00:00:00Z")
        var checked = 0, nonEmpty = 0
        for day in SeriesBuckets.day(of: ReportSummaries.at("2026-01-08T00:00:00Z"))...SeriesBuckets.day(of: ReportSummaries.at("2026-01-16T00:00:00Z")) {
            let from = SeriesBuckets.midnight(day)
            for hours in stride(from: 0, to: 24 * 10, by: 3) {
                let at = ReportSummaries.at("2026-01-09T00:00:00Z") + .hours(hours)
                for to in [nil, end] {
                    var o = ReplayOptions(profile: .handz, asOf: at)
                    o.from = from
                    o.to = to
                    let replayed = try Replay.run(directory: log.path, options: o).funnel()
                    let indexed = try #require(try index.funnel(at: at, from: from, to: to))
                    #expect(indexed == replayed, "window from \(from) to \(to.map(\.description) ?? "-") as of \(at)")
                    checked += 1
                    if replayed.steps.first.map({ $0.users > 0 }) ?? false { nonEmpty += 1 }
                }
            }
        }
        // Windows of every kind were asked: those holding a funnel and those not.
        #expect(nonEmpty > 0 && nonEmpty < checked, "\(nonEmpty) of \(checked) windows hold a funnel")
    }
}
