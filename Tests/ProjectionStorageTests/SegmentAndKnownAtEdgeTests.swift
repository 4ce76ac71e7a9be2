import Testing
import TestKit
import LedgerFixture
import SubscriptionDomain
import Platform
@testable import Projections
@testable import ProjectionStorage

/// The edges of a user's segment (seed stories of one or two events): an event at the instant
/// asked counts, a sandbox event moves nothing, and a family-shared purchase sets no offer.
@Suite struct SegmentEdges {
    @Test func aUserWhosePurchaseIsAtTheInstantIsInItsProduct() throws {
        let log = try TestLog([#"{"id":"p1","type":"purchase","user":"u1","time":"2026-01-10T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-10T00:00:00Z","price":"9.99","currency":"USD"}}"#])
        let whole = try log.replay(at: "2026-01-10T00:00:00Z")
        let parts = try whole.segmented(by: .product, directory: log.path)
        #expect(parts.map(\.value) == ["handz.pro.monthly"])
    }

    @Test func aSandboxRenewalDoesNotMoveAUserToAnotherStore() throws {
        let log = try TestLog([
            #"{"id":"p1","type":"purchase","user":"u1","time":"2026-01-10T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-10T00:00:00Z","price":"9.99","currency":"USD","store":"app_store","country":"US"}}"#,
            #"{"id":"r1","type":"renewal","user":"u1","time":"2026-01-20T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t2","originalTransaction":"t2","expires":"2026-02-20T00:00:00Z","price":"9.99","currency":"USD","environment":"sandbox","store":"play_store","country":"DE"}}"#,
        ])
        let whole = try log.replay(at: "2026-01-25T00:00:00Z")
        #expect(try whole.segmented(by: .store, directory: log.path).map(\.value) == ["app_store"])
        #expect(try whole.segmented(by: .country, directory: log.path).map(\.value) == ["US"])
    }

    @Test func aFamilySharedPurchaseDoesNotSetTheOffer() throws {
        let log = try TestLog([
            #"{"id":"p1","type":"purchase","user":"u1","time":"2026-01-10T00:00:00Z","data":{"product":"com.sportstime.pro.monthly","transaction":"t1","expires":"2026-02-10T00:00:00Z","offer":"intro","price":"1.99","currency":"USD","familyShared":true}}"#,
        ], profile: .sportstime)
        let whole = try log.replay(at: "2026-01-25T00:00:00Z", profile: .sportstime)
        #expect(try whole.segmented(by: .offer, directory: log.path).map(\.value) == ["none"])
    }
}

/// Late records (`--compare-known-at`): an event in effect exactly at the instant asked is one.
@Suite struct LateRecords {
    @Test func theLateRecordsIncludeAnEventInEffectAtTheInstantAsked() throws {
        let log = try TestLog([])
        for (i, ms) in [(1, Int64(10_000)), (2, 30_000), (3, 20_000), (4, 40_000)] { try KnownAtPositions.append([KnownAtPositions.line(i)], to: log.path, recordedAt: ms) }
        let late = try KnownAt.lateRecords(directory: log.path, after: 1, through: 4, effectiveBy: Timestamp.parse("2026-01-03T00:00:00Z")!)
        #expect(late.map(\.position) == [2, 3])
    }
}

/// A stored count the walk reads (`FieldCoder`) that no `UInt32` holds is damage, never a trap.
@Suite struct StoredCounts {
    @Test func aStoredCountPastUInt32IsUnreadableNotATrap() throws {
        let s = Scratch()
        let path = s.path + "/counts"
        // The varint of 2^32, then four bytes where the CRC would be.
        try DurableFile.replace(path: path, with: [0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0, 0])
        let source = try #require(try DurableFile.Source(path: path))
        var r = ProjectionReader(source: source)
        var n: UInt32 = 0
        #expect(throws: ProjectionReader.Unreadable.self) { try r.code(count: &n) }
    }
}
