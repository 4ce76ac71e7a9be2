import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
import Ingest
@testable import Projections
@testable import ProjectionStorage

/// `KnownAt.position`: the log as it stood at an instant of record time is the prefix before the
/// first record recorded after it, even when a clock set back stamped a later record earlier.
@Suite struct KnownAtPositions {
    static func append(_ lines: [String], to path: String, recordedAt ms: Int64) throws {
        var options = EventLog.Options()
        options.clock = { ms }
        var summary = EventImporter.Summary()
        let importer = EventImporter(log: try EventLog(directory: path, options: options))
        try importer.importLines(Array(lines.joined(separator: "\n").utf8), file: "t", into: &summary)
        #expect(summary.appended == lines.count)
    }

    static func line(_ i: Int) -> String {
        #"{"id":"e\#(i)","type":"paywall_viewed","user":"u\#(i)","time":"2026-01-0\#(i)T00:00:00Z","data":{"context":"onboarding"}}"#
    }

    @Test func theLogAsItStoodIsThePrefixBeforeTheFirstRecordRecordedLater() throws {
        let log = try TestLog([])
        // Recorded at 10 s, 30 s, then a clock set back to 20 s, then 40 s: positions 1, 2, 3, 4.
        for (i, ms) in [(1, Int64(10_000)), (2, 30_000), (3, 20_000), (4, 40_000)] { try Self.append([Self.line(i)], to: log.path, recordedAt: ms) }
        func at(_ s: Int64) throws -> UInt64 { try KnownAt.position(directory: log.path, at: Timestamp(seconds: s)) }
        #expect(try at(5) == 0)
        #expect(try at(10) == 1)
        // Record 3 (stamped 20 s) came after record 2 (30 s): at 25 s the log held record 1 only.
        #expect(try at(25) == 1)
        #expect(try at(30) == 3)
        #expect(try at(39) == 3)
        #expect(try at(40) == 4 && at(1_000_000) == 4)
        // The report over the prefix is the report of a log holding those records only.
        let prefix = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: Timestamp(seconds: 2_000_000_000)), through: try at(30))
        #expect(prefix.counts()["paywall_viewed"] == 3 && prefix.userIDs == ["u1", "u2", "u3"])
    }
}
