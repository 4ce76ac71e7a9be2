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
