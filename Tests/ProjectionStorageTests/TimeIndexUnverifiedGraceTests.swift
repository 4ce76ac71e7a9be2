import Testing
import TestKit
import LedgerFixture
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The index walks each user's instants under the profile's own unverified grace: a renewal due
/// and never reported keeps its subscriber Pro for that many hours, then Free, in the index's
/// answers as in a fold.
@Suite struct TimeIndexUnverifiedGrace {
    static let lines = [
        #"{"id":"p1","type":"purchase","user":"uma","time":"2026-01-01T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-01T10:00:00Z","price":"9.99","currency":"USD"}}"#,
        #"{"id":"p2","type":"purchase","user":"vic","time":"2026-01-05T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t2","expires":"2026-03-05T10:00:00Z","price":"9.99","currency":"USD"}}"#,
    ]

    @Test func anUnverifiedGraceOfOneHourOrTwoDaysEndsInTheIndexWhenItEndsInTheFold() throws {
        let log = try TestLog(Self.lines)
        for hours in [1, 48] {
            var profile = Profile.handz
            profile.name = "handz-unverified-\(hours)h"
            profile.unverifiedGraceHours = hours
            let store = ProjectionStore(logDirectory: log.path, profile: profile)
            let (index, _) = try store.timeIndex()
            for after in ["0:30", "2:00", "25:00", "47:30", "49:00"] {
                let parts = after.split(separator: ":").map { Int64($0)! }
                let at = Timestamp.parse("2026-02-01T10:00:00Z")! + .init(nanoseconds: (parts[0] * 60 + parts[1]) * 60_000_000_000)
                let fold = try Replay.run(directory: log.path, options: ReplayOptions(profile: profile, asOf: at))
                #expect(try index.counts(at: at) == fold.counts(), "\(hours) h grace, \(after) after the renewal was due")
                #expect(try index.revenue(at: at, profile: profile) == fold.revenue(), "\(hours) h grace, \(after) after the renewal was due")
                // uma is Pro while her grace runs, then Free; vic's subscription runs on.
                #expect(fold.revenue().activeSubscriptions == (Int64(hours) * 60 > parts[0] * 60 + parts[1] ? 2 : 1), "\(hours) h, \(after)")
            }
        }
    }
}
