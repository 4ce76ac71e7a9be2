import Foundation
import Testing
import TestKit
import EventStore
@testable import ProjectionStorage

extension ImportedEventCaches {
    /// A batch handed with events that are not its records' one for one could put an event at
    /// another record's position: nothing is gathered from it, and nothing is written.
    @Test func aBatchHandedWithMoreEventsThanRecordsLeavesNoCache() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.log)
        let cache = try #require(ImportedEventCache(log: log))
        let (records, _) = try Self.batch("e2", "e3")
        let (_, events) = try Self.batch("e1", "e2", "e3")
        cache.add(records, events, try log.append(records))
        let abandoned = try #require(try cache.write(log: log).failure)
        #expect(abandoned.reason == "a batch of 2 records came with 3 events")
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(dir.log)))
    }
}

extension ImportedEventCaches {
    /// An import that appends nothing (its one line not an event) has no head to name: nothing is written.
    @Test(arguments: [true, false])
    func anImportThatAppendsNothingWritesNoCache(twoThreads: Bool) throws {
        let (dir, result, summary) = try Self.importGathering(Array("not json\n".utf8), batchSize: 7, twoThreads: twoThreads)
        #expect(summary.appended == 0 && summary.rejected == 1, "\(summary)")
        let abandoned = try #require(result.failure)
        #expect(abandoned.reason == "the log's head is at 0, the import's last record at 0")
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(dir.log)))
    }
}
