import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// A window funnel chain is kept by first paywall view day only for the whole log's chain (the
/// window day before any day, read by a series' buckets). Under a window day a chain is added and
/// taken out without a view day: a windowed funnel sums the keys of the days before the window
/// over every view day, so one key per (window day, steps) is all the index holds for it.
extension TimeIndexes {
    @Test func aWindowFunnelKeyUnderAWindowDayHoldsNoFirstViewDay() throws {
        let seed: UInt64 = 41
        var rng = SplitMix64(seed: seed)
        let base = Array(ReportSummaries.base.prefix(400))
        let log = try TestLog(base)
        try ReportSummaries.append(Self.moreEvents(&rng, round: 0, count: 120), to: log)
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let (index, _) = try store.timeIndex()
        var byView = 0, byWindowDay = 0
        for k in index.keyRange(.windowFunnel) {
            let (windowDay, viewDay, _) = index.keys[k].unpacked
            if windowDay == TimeKey.beforeAnyDay {
                if viewDay != TimeKey.noViewDay { byView += 1 }
            } else {
                byWindowDay += 1
                #expect(viewDay == TimeKey.noViewDay, "seed \(seed): \(index.keys[k]) holds view day \(viewDay)")
            }
        }
        // The log has chains of both kinds, so the keys checked are there.
        #expect(byView > 0 && byWindowDay > 0, "seed \(seed): \(byView) keys by view day, \(byWindowDay) under a window day")
    }
}
