import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@testable import Projections
@testable import ProjectionStorage
import Platform
import Ingest

@Suite struct KeptProjections {
    static let lines = PopulationGenerator(profile: .handz, users: 300, seed: 11).events().map { EventCodec.encode($0) }
    static let instant = Timestamp.parse("2026-05-01T00:00:00Z")!

    /// Imports the lines; returns how many were appended (generated retries are duplicates).
    @discardableResult
    static func append(_ lines: ArraySlice<String>, to log: TestLog) throws -> Int {
        try log.append(Array(lines), file: "t").summary.appended
    }

    static func same(_ a: LedgerSnapshot, _ b: LedgerSnapshot) {
        #expect(a.userIDs == b.userIDs)
        #expect(a.userIDs.map { a.plan(of: $0) } == b.userIDs.map { b.plan(of: $0) })
        #expect(a.counts() == b.counts())
        #expect(a.funnel() == b.funnel())
        #expect(a.notifications() == b.notifications())
        #expect(a.revenue() == b.revenue())
    }

    @Test func catchUpInSeveralStepsGivesTheSameAnswersAsAFullRebuild() throws {
        let log = try TestLog([])
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        var offset = 0
        for step in [500, 1, 700, 40] {
            let appended = try Self.append(Self.lines[offset..<min(offset + step, Self.lines.count)], to: log)
            offset += step
            let r = try store.refresh()
            #expect(r.rebuilt == (offset == 500))
            if offset > 500 { #expect(r.recordsRead == appended) }
        }
        try Self.append(Self.lines[offset...], to: log)
        Self.same(try store.keptSnapshot(asOf: Self.instant), try log.replay(at: "2026-05-01T00:00:00Z"))
        // and as of an earlier instant, where some users have later events
        Self.same(try store.keptSnapshot(asOf: Timestamp.parse("2026-02-01T00:00:00Z")!), try log.replay(at: "2026-02-01T00:00:00Z"))
    }

    @Test func aPastInstantFoldedFromTheEventCacheAnswersAsTheKeptProjectionAndFallsBackWhenTheCacheIsBehind() throws {
        let log = try TestLog([])
        try Self.append(Self.lines[..<1_000], to: log)
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        _ = try Replay.buildEventCache(directory: log.path)
        for at in ["2026-02-01T00:00:00Z", "2026-05-01T00:00:00Z", "2027-01-01T00:00:00Z"] {
            Self.same(try store.snapshot(asOf: Timestamp.parse(at)!), try store.keptSnapshot(asOf: Timestamp.parse(at)!))
        }
        // Records past the cache's head: the cache no longer matches, the kept projection answers.
        try Self.append(Self.lines[1_000...], to: log)
        let later = try store.snapshot(asOf: Self.instant)
        Self.same(later, try store.keptSnapshot(asOf: Self.instant))
        #expect(later.userIDs.count > 300 / 2)
        // A question is only read: it does not build the cache again as it answers.
        #expect(!Replay.eventCacheReady(try ProjectionStore.openForScans(log.path), build: false), "the event cache was rebuilt by a read")
    }

    /// At the very instant of an event, the fold from the event cache counts that event, as the
    /// kept projection does (an instant is inclusive, whichever way the answer is folded).
    @Test func anInstantOfAnEventFoldedFromTheEventCacheCountsThatEventAsTheKeptProjectionDoes() throws {
        let log = try TestLog([])
        try Self.append(Self.lines[..<1_000], to: log)
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        _ = try Replay.buildEventCache(directory: log.path)
        let events = PopulationGenerator(profile: .handz, users: 300, seed: 11).events()
        for k in stride(from: 7, to: 1_000, by: 131) {
            let at = events[k].time
            let cached = try store.snapshot(asOf: at), kept = try store.keptSnapshot(asOf: at)
            let before = try store.keptSnapshot(asOf: Timestamp(nanoseconds: at.nanoseconds - 1))
            #expect(kept.userIDs.contains(events[k].user), "event \(k) at \(at)")
            #expect(cached.counts() != before.counts() || cached.userIDs != before.userIDs, "event \(k) at \(at) is counted")
            Self.same(cached, kept)
        }
    }

    /// Transfers: a subscription received and transferred on (A→B→C), a recipient's own purchase
    /// and refund after receiving, a transfer to someone with a running subscription, a transfer
    /// back and forth, and a late event of a recipient.
    static let transferStory: [String] = {
        func purchase(_ id: String, _ user: String, _ time: String, _ t: String, expires: String) -> String {
            #"{"id":"\#(id)","type":"purchase","user":"\#(user)","time":"\#(time)T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"\#(t)","expires":"\#(expires)T10:00:00Z","price":"9.99","currency":"USD"}}"#
        }
        func transfer(_ id: String, _ user: String, _ time: String, to: String) -> String {
            #"{"id":"\#(id)","type":"transfer","user":"\#(user)","time":"\#(time)T12:00:00Z","data":{"to":"\#(to)"}}"#
        }
        return [
            purchase("a1", "alice", "2026-01-26", "t1", expires: "2026-02-26"), transfer("a2", "alice", "2026-01-31", to: "bob"),
            purchase("d1", "dan", "2026-01-20", "t2", expires: "2026-02-20"), transfer("d2", "dan", "2026-01-25", to: "erin"),
            transfer("b1", "bob", "2026-02-06", to: "carl"),
            purchase("e1", "erin", "2026-02-01", "t3", expires: "2026-03-01"),
            #"{"id":"e2","type":"refund","user":"erin","time":"2026-02-03T10:00:00Z","data":{"transaction":"t3","price":"9.99","currency":"USD"}}"#,
            purchase("f1", "fay", "2026-01-10", "t4", expires: "2026-02-10"), purchase("g1", "gus", "2026-01-05", "t5", expires: "2026-02-05"),
            transfer("g2", "gus", "2026-01-12", to: "fay"),
            purchase("h1", "hal", "2026-01-02", "t6", expires: "2026-02-02"), transfer("h2", "hal", "2026-01-15", to: "ian"),
            transfer("i1", "ian", "2026-01-20", to: "hal"),
            purchase("b2", "bob", "2026-01-01", "t7", expires: "2026-01-08"),
        ]
    }()

    @Test func aKeptProjectionCaughtUpOverTransfersAnswersAsAFullRebuildAtEverySplit() throws {
        let whole = try TestLog(Self.transferStory)
        for split in 1..<Self.transferStory.count {
            let log = try TestLog([])
            let store = ProjectionStore(logDirectory: log.path, profile: .handz)
            try Self.append(Self.transferStory[..<split], to: log)
            try store.refresh()
            try Self.append(Self.transferStory[split...], to: log)
            for at in ["2026-02-07T00:00:00Z", "2026-01-28T00:00:00Z", "2026-03-02T00:00:00Z"] {
                let kept = try store.keptSnapshot(asOf: Timestamp.parse(at)!), full = try whole.replay(at: at)
                #expect(kept.userIDs.map { kept.plan(of: $0) } == full.userIDs.map { full.plan(of: $0) }, "split \(split), at \(at)")
                #expect(kept.revenue() == full.revenue() && kept.counts() == full.counts(), "split \(split), at \(at)")
            }
        }
    }

    @Test func aRefreshWithNothingNewReadsNothing() throws {
        let log = try TestLog(Array(Self.lines.prefix(100)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        #expect(try store.refresh().rebuilt)
        let again = try store.refresh()
        #expect(!again.rebuilt && again.recordsRead == 0)
    }

    @Test func aProjectionOfAnotherProfileIsRebuiltNotReused() throws {
        let log = try TestLog(Array(Self.lines.prefix(200)))
        var seven = Profile.handz
        seven.billingGraceDays = 7
        let handz = ProjectionStore(logDirectory: log.path, profile: .handz)
        #expect(try handz.refresh().rebuilt)
        #expect(try ProjectionStore(logDirectory: log.path, profile: seven).refresh().rebuilt)
        #expect(try ProjectionStore(logDirectory: log.path, profile: seven).refresh().rebuilt == false)
        #expect(try handz.refresh().rebuilt == false)
        // A projection stored by another code version (or for other rules) under this file is not trusted.
        var stored = try #require(try handz.read())
        stored.codeVersion = 0
        try handz.write(stored)
        #expect(try handz.read()?.codeVersion == 0)
        #expect(try handz.refresh().rebuilt)
    }

    @Test func aCrashBetweenDataAndCheckpointLeavesAConsistentProjection() throws {
        let log = try TestLog(Array(Self.lines.prefix(400)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        try store.refresh()
        let saved = try DurableFile.read(path: store.path)!
        // A crash while writing the next version: a half-written temporary file is left behind.
        _ = FileManager.default.createFile(atPath: store.path + ".tmp", contents: Data(saved.prefix(saved.count / 2)))
        let appended = try Self.append(Self.lines[400...], to: log)
        let r = try store.refresh()
        #expect(!r.rebuilt && r.recordsRead == appended)
        Self.same(try store.keptSnapshot(asOf: Self.instant), try log.replay(at: "2026-05-01T00:00:00Z"))
        // A torn projection file (data without its end) is never trusted: it is rebuilt.
        _ = FileManager.default.createFile(atPath: store.path, contents: Data(saved.prefix(saved.count - 10)))
        #expect(try store.refresh().rebuilt)
        Self.same(try store.keptSnapshot(asOf: Self.instant), try log.replay(at: "2026-05-01T00:00:00Z"))
    }

}
