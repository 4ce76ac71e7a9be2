import Foundation
import Testing
import TestKit
@testable import EventStore

/// verify counts the segments it read and those in the folder: the same for an intact log, fewer
/// read when damage in an early segment stops the check (an auditor sees that the rest were not read).
@Suite struct VerifiedSegmentCounts {
    @Test func damageInAnEarlySegmentStopsTheCountOfSegmentsReadButNotOfThoseInTheLog() throws {
        let (dir, files) = try severalSegmentLog()
        let intact = LogVerifier.verify(directory: dir.path)
        #expect(intact.isIntact && intact.segments == files.count && intact.segmentsInLog == files.count, "\(intact)")
        // A byte of the second segment's first record flipped (past the segment's header and the frame's).
        var second = fileBytes(files[1])
        let at = LogFormat.segmentHeaderSize + LogFormat.frameHeaderSize + 4
        second[at] ^= 0x20
        writeFileBytes(files[1], second)
        let damaged = LogVerifier.verify(directory: dir.path)
        #expect(damaged.damage != nil && damaged.segments == 2 && damaged.segmentsInLog == files.count, "\(damaged)")
    }
}
