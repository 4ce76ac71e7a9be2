import Foundation
import Testing
import TestKit
@testable import EventStore

/// The committed-head checkpoint draws the line between a torn tail (cut) and damage or lost
/// committed records (named, never cut).
@Suite struct CommittedHeadLine {
    /// A log of batches of sizes 2, 3, 4; the segment and the checkpoint as they were after each batch.
    struct Story {
        let dir = Scratch()
        var segments: [[UInt8]] = []
        var checkpoints: [[UInt8]] = []
        var ends: [Int] = []
        init() throws {
            let log = try EventLog(directory: dir.path)
            for (b, size) in [2, 3, 4].enumerated() {
                try log.append(proposed(size, prefix: "b\(b)-", size: 30))
                segments.append(fileBytes(segmentFiles(of: dir.path)[0]))
                checkpoints.append(fileBytes(dir.path + "/segments/committed-head"))
                ends.append(segments.last!.count)
            }
        }
        /// A new log folder holding `segment` and `checkpoint`.
        func copy(segment: [UInt8], checkpoint: [UInt8]?) throws -> Scratch {
            let out = Scratch()
            try FileManager.default.createDirectory(atPath: out.path + "/segments", withIntermediateDirectories: true)
            writeFileBytes(out.path + "/segments/" + LogFormat.segmentName(base: 1), segment)
            if let checkpoint { writeFileBytes(out.path + "/segments/committed-head", checkpoint) }
            return out
        }
    }

    @Test func aHalfWrittenFrameFollowedByZeroFillPastTheCommittedHeadIsATornTailAndIsCut() throws {
        let story = try Story()
        // Power lost during batch 3: the file's size reached the disk, half its bytes did not (zero fill).
        var torn = story.segments[2]
        let tornFrom = story.ends[1] + (story.ends[2] - story.ends[1]) / 3
        for i in tornFrom..<torn.count { torn[i] = 0 }
        let dir = try story.copy(segment: torn, checkpoint: story.checkpoints[1])
        let report = LogVerifier.verify(directory: dir.path)
        #expect(report.isIntact && report.head.position == 5 && report.tail != nil)
        let log = try EventLog(directory: dir.path)
        #expect(log.head.position == 5 && log.recovery.truncatedBytes == story.ends[2] - story.ends[1])
        #expect(fileBytes(segmentFiles(of: dir.path)[0]) == story.segments[1])
        try log.append([ProposedRecord(id: "after", stream: "s", payload: [1])])
        #expect(LogVerifier.verify(directory: dir.path).isIntact)
    }

    @Test func theSameBytesAtOrBeforeTheCommittedHeadAreDamageAndAreNeverCut() throws {
        let story = try Story()
        var damaged = story.segments[2]
        for i in (story.ends[1] + 20)..<damaged.count { damaged[i] = 0 }
        let dir = try story.copy(segment: damaged, checkpoint: story.checkpoints[2])
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path) }
        let report = LogVerifier.verify(directory: dir.path)
        #expect(report.damage?.code == .damaged && report.damage?.position == 6)
        #expect(fileBytes(segmentFiles(of: dir.path)[0]) == damaged, "damage is never cut")
    }

    /// Cut at every byte after batch 1: with the checkpoint of the batch that stays whole, the rest
    /// is a torn tail; with the checkpoint of the last batch, committed records were lost.
    @Test func aCutIsTornPastTheCommittedHeadAndLostRecordsAtOrBeforeIt() throws {
        let story = try Story()
        for cut in story.ends[0]..<story.ends[2] {
            let kept = story.ends.lastIndex { $0 <= cut }!
            let torn = try story.copy(segment: Array(story.segments[2][..<cut]), checkpoint: story.checkpoints[kept])
            let log = try EventLog(directory: torn.path)
            #expect(log.head.position == [2, 5, 9][kept] && log.recovery.truncatedBytes == cut - story.ends[kept], "cut at \(cut)")
            let lost = try story.copy(segment: Array(story.segments[2][..<cut]), checkpoint: story.checkpoints[2])
            #expect(throws: EventStoreError.self, "cut at \(cut)") { try EventLog(directory: lost.path) }
            #expect(throws: EventStoreError.self, "cut at \(cut)") { try EventLog(directory: lost.path, access: .read) }
            let report = LogVerifier.verify(directory: lost.path)
            #expect(report.damage?.code == .damaged && report.committedHead?.position == 9, "cut at \(cut)")
            #expect(fileBytes(segmentFiles(of: lost.path)[0]).count == cut, "lost records are never cut further")
        }
    }

    @Test func aTornCheckpointSlotFallsBackToTheOtherAndTheWriterMendsIt() throws {
        let story = try Story()
        var checkpoint = story.checkpoints[2]
        let newest = try #require({ if case .head(let r) = try CommittedHead.read(path: story.dir.path + "/segments/committed-head") { r } else { nil } }())
        #expect(newest.head.position == 9)
        checkpoint[newest.slot * CommittedHead.slotSize + 20] ^= 0xFF
        let dir = try story.copy(segment: story.segments[2], checkpoint: checkpoint)
        #expect(try EventLog(directory: dir.path, access: .read).committedHead?.position == 5)
        #expect(LogVerifier.verify(directory: dir.path).isIntact)
        let writer = try EventLog(directory: dir.path)
        #expect(writer.committedHead?.position == 9 && writer.head.position == 9)
        // Both slots spoiled: verify names the file; no handle guesses the line; recover accepts the records it checked.
        writeFileBytes(dir.path + "/segments/committed-head", [UInt8](repeating: 0xAB, count: 128))
        #expect(LogVerifier.verify(directory: dir.path).damage?.path?.hasSuffix("committed-head") == true)
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path) }
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: .read) }
        _ = try LogRecovery.accept(try LogRecovery.plan(directory: dir.path), directory: dir.path, stamp: "test")
        #expect(try EventLog(directory: dir.path).committedHead?.position == 9)
        #expect(LogVerifier.verify(directory: dir.path).isIntact)
    }

    @Test func aCheckpointOfAnotherLogIsNamedAsAlteredOrReplaced() throws {
        let story = try Story()
        let other = try Story()   // same ids and sizes, other append times: another chain
        let dir = try story.copy(segment: story.segments[2], checkpoint: other.checkpoints[2])
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path) }
        let damage = LogVerifier.verify(directory: dir.path).damage
        #expect(damage?.message.contains("does not hash to the committed head") == true && damage?.position == 9)
    }

    /// A log with records and no checkpoint (removed, or written before it existed) cannot say
    /// whether committed records were lost: no handle opens it and verify names it, until
    /// `recover` accepts the records it holds; nothing of them is cut.
    @Test func aLogWithoutItsCheckpointIsRefusedUntilRecoverAcceptsIt() throws {
        let story = try Story()
        let dir = try story.copy(segment: story.segments[2], checkpoint: nil)
        let report = LogVerifier.verify(directory: dir.path)
        #expect(report.committedHead == nil && report.damage?.message.contains("checkpoint is missing") == true)
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path) }
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: .read) }
        let plan = try LogRecovery.plan(directory: dir.path)
        #expect(plan.keep.position == 9 && !plan.dropsSomething && plan.changesLog)
        _ = try LogRecovery.accept(plan, directory: dir.path, stamp: "test")
        #expect(try EventLog(directory: dir.path).committedHead == LogHead(position: 9, hash: try EventLog(directory: dir.path).head.hash))
        #expect(LogVerifier.verify(directory: dir.path).isIntact)
    }

    @Test func segmentHeaderReservedBytesMustBeZero() throws {
        let story = try Story()
        var segment = story.segments[2]
        segment[29] = 1
        let dir = try story.copy(segment: segment, checkpoint: story.checkpoints[2])
        #expect(LogVerifier.verify(directory: dir.path).damage?.offset == 28)
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: .read) }
    }
}

@Suite struct LogFolders {
    @Test func aWriterWillNotMakeALogInAFolderOfAnotherProgramsFiles() throws {
        let dir = Scratch()
        writeFileBytes(dir.path + "/thesis.tex", bytes("\\documentclass{article}"))
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path) }
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/segments"))
        #expect(throws: EventStoreError.self) { try EventLog(directory: "") }
        // A new folder, an empty one, and one left with only the log's own folders are fine.
        let empty = Scratch()
        try EventLog(directory: empty.path).append(proposed(1))
        let fresh = Scratch()
        try EventLog(directory: fresh.path + "/new/ledger").append(proposed(1))
        let kept = Scratch()
        try FileManager.default.createDirectory(atPath: kept.path + "/projections", withIntermediateDirectories: true)
        try EventLog(directory: kept.path).append(proposed(1))
        // An existing log may hold anything else beside it.
        writeFileBytes(kept.path + "/notes.txt", bytes("mine"))
        try EventLog(directory: kept.path).append([ProposedRecord(id: "x", stream: "s", payload: [1])])
    }
}

@Suite struct PinnedReads {
    @Test func aHandleReadingThroughAPositionSeesTheLogAsItWasThere() throws {
        let dir = Scratch()
        var options = EventLog.Options()
        options.segmentSize = 400
        let writer = try EventLog(directory: dir.path, options: options)
        var heads: [LogHead] = []
        for b in 0..<12 {
            try writer.append(proposed(2, prefix: "b\(b)-", size: 40))
            heads.append(writer.head)
        }
        #expect(segmentFiles(of: dir.path).count > 3)
        for head in heads {
            var read = EventLog.Options()
            read.indexes = false
            read.readThrough = head.position
            let pinned = try EventLog(directory: dir.path, access: .read, options: read)
            #expect(pinned.head.position == head.position)
            #expect(try pinned.records().count == Int(head.position))
            #expect(try pinned.chainHash(at: head.position) == head.hash)
            #expect(try writer.chainHash(at: head.position) == head.hash)
        }
        #expect(try writer.chainHash(at: 0) == .zero && writer.chainHash(at: 25) == nil)
    }
}
