import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
@_spi(Testing) @testable import ProjectionStorage
@testable import Projections

/// When the build stops at a record the first thread could not decode, the records before it are
/// named first: those of the batch handed to the second thread before, then those of the current
/// batch left undecoded for it, then the record itself.
extension EventCaches {
    /// Batches of 4,096 records: 9,000 is decoded on the second thread in the third batch
    /// (8,193–12,288); 12,498 is a record of the fourth batch left undecoded for the second thread
    /// (a multiple of 3), and 12,500 the record of that batch the first thread fails on. The
    /// build names 9,000: the earlier batch's failure before the current batch's raw records.
    @Test func aRecordTheSecondThreadFailedOnIsNamedBeforeOneOfTheCurrentBatchLeftForIt() throws {
        let scratch = Scratch()
        let log = try Self.log(14_000, wrong: [9_000, 12_498, 12_500], in: scratch)
        let error = #expect(throws: ProjectionError.self) { try EventCache.build(log) }
        #expect(error?.position == 9_000, "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.contains("is not the record's stream 'u9000'") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(scratch.log)), "no cache is written")
    }
}
