import Foundation
import Testing
import TestKit
@testable import EventStore

/// `LogRecovery` when the damage is at the start of a segment that is not the first: that segment
/// goes whole to `DIR/recovered/`, named once, its bytes all counted.
@Suite struct LogRecoveryWholeSegment {
    @Test func aDamagedHeaderOfALaterSegmentDropsItWholeAndNamesItOnce() throws {
        let dir = Scratch()
        try smallSegmentLog(dir.path, segmentSize: 400, batches: 8, perBatch: 2)
        let files = segmentFiles(of: dir.path)
        #expect(files.count >= 4)
        let damaged = files[2], later = Array(files[3...])
        let bytes = fileBytes(damaged)
        var header = bytes
        header[3] ^= 0x01   // the magic number
        writeFileBytes(damaged, header)
        let plan = try LogRecovery.plan(directory: dir.path)
        #expect(plan.cutSegment == damaged && plan.cutSegmentWhole && plan.cutOffset == 0)
        #expect(plan.laterSegments == later, "the cut segment is not one of the later ones")
        let laterBytes = later.reduce(0) { $0 + fileBytes($1).count }
        #expect(plan.droppedBytes == bytes.count + laterBytes)
        let committed = try #require(plan.committedHead)
        #expect(plan.lostCommittedRecords == committed.position - plan.keep.position && plan.lostCommittedRecords > 0)
        let kept = try LogRecovery.accept(plan, directory: dir.path, stamp: "t")
        #expect(kept.count == 1 + later.count)
        #expect(fileBytes(kept[0]) == header, "the whole segment, header included, is kept beside the log")
        #expect(segmentFiles(of: dir.path) == Array(files[..<2]))
        #expect(LogVerifier.verify(directory: dir.path).isIntact)
        #expect(try LogRecovery.plan(directory: dir.path).changesLog == false)
    }
}
