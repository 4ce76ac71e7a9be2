import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@testable import ProjectionStorage
import Platform
import Ingest

/// The event cache an import into an empty log gathers as it appends: the file a build from the
/// log writes, byte for byte, or nothing at all.
@Suite struct ImportedEventCaches {
    /// Generated users (late and repeated deliveries among them), the handz sample log, an event
    /// with every field (off-type ones, and an unknown one in odd spacing), one with escapes and
    /// spaces, one line that is not an event and one repeated id: every kind of line an import meets.
    static func lines(users: Int, seed: UInt64) -> [UInt8] {
        var lines = PopulationGenerator(profile: .handz, users: users, seed: seed).events().map { EventCodec.encode($0) }
        let sample = String(decoding: FileManager.default.contents(atPath: repositoryRoot + "/events/handz.jsonl")!, as: UTF8.self)
        lines.insert(contentsOf: sample.split(separator: "\n").map(String.init), at: lines.count / 2)
        lines.insert(EventCaches.everyField.replacingOccurrences(of: #"{"a":[1,"é\n"]}"#, with: #"{ "a" : [ 1 , "\u00e9\n" ] }"#), at: lines.count / 4)
        lines.insert(EventCaches.everyField.replacingOccurrences(of: #","vendorNote":{"a":[1,"é\n"]}"#, with: "")
            .replacingOccurrences(of: #""id":"x-1""#, with: #""id":"x-5""#), at: lines.count / 5)
        lines.insert(#"{ "id" : "x-6", "type" : "paywall_viewed", "user" : "w\u00e9 \"q\"", "time" : "2026-01-02T03:04:05.678901234Z", "data" : { "context" : "on\tboarding" } }"#,
                     at: lines.count / 6)
        lines.insert("not json", at: lines.count / 3)
        lines.append(lines[5])
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Imports `input` into a new log with batches of `batchSize`, gathering its cache; returns the
    /// log's folder, what `write` said, and the summary.
    static func importGathering(_ input: [UInt8], batchSize: Int, twoThreads: Bool, eventLimit: Int = ImportedEventCache.eventLimit)
        throws -> (Scratch, Result<Int, ImportedEventCache.Abandoned>, EventImporter.Summary) {
        let dir = Scratch()
        let log = try EventLog(directory: dir.log)
        let cache = try #require(ImportedEventCache(log: log, eventLimit: eventLimit))
        var importer = EventImporter(log: log)
        importer.batchSize = batchSize
        importer.appendsWhileReading = twoThreads
        importer.profile = Profile.handz.lenientDoor
        importer.batchAppended = { cache.add($0, $1, $2) }
        var summary = EventImporter.Summary()
        var rejected = RejectedLineCollector()
        try importer.importLines(input, file: "in.jsonl", rejected: &rejected, into: &summary)
        return (dir, try cache.write(log: log), summary)
    }

    @Test(arguments: [true, false])
    func anImportIntoAnEmptyLogWritesTheCacheABuildFromTheLogWritesByteForByte(twoThreads: Bool) throws {
        let (dir, result, summary) = try Self.importGathering(Self.lines(users: 400, seed: 41), batchSize: 97, twoThreads: twoThreads)
        #expect(summary.rejected == 1 && summary.duplicates >= 1 && summary.appended > 1_500, "\(summary)")
        #expect(try result.get() == summary.appended)
        let gathered = try #require(FileManager.default.contents(atPath: EventCache.path(dir.log)))
        try FileManager.default.removeItem(atPath: EventCache.path(dir.log))
        let log = try EventLog(directory: dir.log, access: .read)
        try EventCache.build(log)
        let built = try #require(FileManager.default.contents(atPath: EventCache.path(dir.log)))
        #expect(gathered == built, "\(gathered.count) bytes gathered, \(built.count) built")
        #expect(EventCache.reader(dir.log, head: log.head) != nil)
    }

    @Test func anImportIntoALogThatHoldsRecordsGathersNothing() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.log)
        #expect(ImportedEventCache(log: log) != nil)
        try log.append([ProposedRecord(id: "e1", stream: "u", payload: Array(#"{"id":"e1","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z"}"#.utf8))])
        #expect(ImportedEventCache(log: log) == nil)
    }

    @Test func anotherWritersRecordsBetweenTheImportsLeaveNoCache() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.log)
        let cache = try #require(ImportedEventCache(log: log))
        let (first, firstEvents) = try Self.batch("e1"), (second, _) = try Self.batch("e2"), (third, thirdEvents) = try Self.batch("e3")
        cache.add(first, firstEvents, try log.append(first))
        _ = try log.append(second)      // not the import's
        cache.add(third, thirdEvents, try log.append(third))
        let abandoned = try #require(try cache.write(log: log).failure)
        #expect(abandoned.reason.contains("position 3 came where 2 was expected"), "\(abandoned)")
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(dir.log)))
    }

    @Test func aRecordAppendedAfterTheImportsLastLeavesNoCache() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.log)
        let cache = try #require(ImportedEventCache(log: log))
        let (first, events) = try Self.batch("e1")
        cache.add(first, events, try log.append(first))
        _ = try log.append(try Self.batch("e2").0)
        let abandoned = try #require(try cache.write(log: log).failure)
        #expect(abandoned.reason == "the log's head is at 2, the import's last record at 1")
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(dir.log)))
    }

    /// Written once: a second call writes nothing and says so (the writer is let go after the first).
    @Test func aCacheWrittenOnceIsNotWrittenAgain() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.log)
        let cache = try #require(ImportedEventCache(log: log))
        let (batch, events) = try Self.batch("e1", "e2")
        cache.add(batch, events, try log.append(batch))
        #expect(try cache.write(log: log).get() == 2)
        let written = try #require(FileManager.default.contents(atPath: EventCache.path(dir.log)))
        let again = try #require(try cache.write(log: log).failure)
        #expect(again.reason == "the cache was written already")
        #expect(FileManager.default.contents(atPath: EventCache.path(dir.log)) == written)
    }

    @Test func anImportOfMoreEventsThanTheLimitLeavesNoCache() throws {
        let (dir, result, summary) = try Self.importGathering(Self.lines(users: 20, seed: 3), batchSize: 7, twoThreads: true, eventLimit: 50)
        #expect(summary.appended > 50)
        let abandoned = try #require(result.failure)
        #expect(abandoned.reason == "the import holds more than 50 events")
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(dir.log)))
    }

    /// Records of user u's account creation with these ids, and their events.
    static func batch(_ ids: String...) throws -> ([ProposedRecord], [Event]) {
        let payloads = ids.map { Array(#"{"id":"\#($0)","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z"}"#.utf8) }
        return (zip(ids, payloads).map { ProposedRecord(id: $0, stream: "u", payload: $1) }, try payloads.map { try EventCodec.decode($0) })
    }
}

extension Result {
    /// The error, or nil.
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
