import Foundation
import Testing
import TestKit
@testable import EventStore

/// Edges of the committed-head line that the first tests of the checkpoint left open.
@Suite struct CommittedHeadEdges {
    typealias Story = CommittedHeadLine.Story

    /// Where each frame of `segment` starts (after the segment header).
    static func frameStarts(_ segment: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var o = LogFormat.segmentHeaderSize
        while o < segment.count {
            starts.append(o)
            o += LogFormat.frameHeaderSize + (Int(segment[o]) | Int(segment[o + 1]) << 8 | Int(segment[o + 2]) << 16 | Int(segment[o + 3]) << 24)
        }
        return starts
    }

    /// A cut inside a frame of the last committed batch, after whole records of that batch, or a
    /// flipped byte in one of its records: open (for append and for reading) names that frame
    /// itself, at the position and offset verify names, not the start of the batch.
    @Test func aTornOrDamagedFrameUpToTheCommittedHeadIsNamedWhereItIsByOpenAsByVerify() throws {
        let story = try Story()
        let full = story.segments[2]
        let starts = Self.frameStarts(full)
        #expect(starts.count == 9)
        // Records 7, 8 and 9 (frames 6, 7, 8): records 6 onwards of batch 3 are whole before each of them.
        for record in 7...9 {
            let start = starts[record - 1], end = record < 9 ? starts[record] : full.count
            for cut in [start + 1, start + LogFormat.frameHeaderSize, (start + end) / 2, end - 1] {
                let dir = try story.copy(segment: Array(full[..<cut]), checkpoint: story.checkpoints[2])
                let damage = LogVerifier.verify(directory: dir.path).damage
                #expect(damage?.position == UInt64(record) && damage?.offset == start, "record \(record), cut at \(cut): \(String(describing: damage))")
                for access in [EventLog.Access.write, .read] {
                    let error = #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: access) }
                    #expect(error?.code == .damaged && error?.position == UInt64(record) && error?.offset == start,
                            "record \(record), cut at \(cut), \(access): \(String(describing: error))")
                }
                #expect(fileBytes(segmentFiles(of: dir.path)[0]).count == cut, "never cut")
            }
        }
        // A flipped byte in any record of that batch, the committed head's own record included.
        for record in 6...9 {
            var damaged = full
            damaged[starts[record - 1] + LogFormat.frameHeaderSize + 40] ^= 0x01
            let dir = try story.copy(segment: damaged, checkpoint: story.checkpoints[2])
            let damage = LogVerifier.verify(directory: dir.path).damage
            #expect(damage?.position == UInt64(record) && damage?.offset == starts[record - 1], "record \(record): \(String(describing: damage))")
            for access in [EventLog.Access.write, .read] {
                let error = #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: access) }
                #expect(error?.code == .damaged && error?.position == UInt64(record) && error?.offset == starts[record - 1],
                        "record \(record), \(access): \(String(describing: error))")
            }
            #expect(fileBytes(segmentFiles(of: dir.path)[0]) == damaged, "never cut")
        }
    }

    /// A checkpoint behind the records (its write failed, or an old copy was put back) makes no
    /// sealed segment a tail: damage there is named at its frame, by open as by verify.
    @Test func damageInASealedSegmentPastAStaleCheckpointIsNamedAtItsFrame() throws {
        let dir = Scratch()
        var options = EventLog.Options()
        options.segmentSize = 600
        let log = try EventLog(directory: dir.path, options: options)
        try log.append(proposed(2, prefix: "a-", size: 30))
        let stale = fileBytes(dir.path + "/segments/committed-head")
        for b in 0..<4 { try log.append(proposed(3, prefix: "b\(b)-", size: 30)) }
        let files = segmentFiles(of: dir.path)
        #expect(files.count >= 3)
        writeFileBytes(dir.path + "/segments/committed-head", stale)
        // The second record of the batch that opens the second segment (a sealed one).
        var sealed = fileBytes(files[1])
        let starts = Self.frameStarts(sealed)
        sealed[starts[1] + LogFormat.frameHeaderSize + 40] ^= 0x01
        writeFileBytes(files[1], sealed)
        let damage = LogVerifier.verify(directory: dir.path).damage
        #expect(damage?.path == files[1] && damage?.offset == starts[1] && damage?.position == 4, "\(String(describing: damage))")
        for access in [EventLog.Access.write, .read] {
            let error = #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: access, options: access == .write ? options : .init()) }
            #expect(error?.path == files[1] && error?.offset == starts[1] && error?.position == 4, "\(access): \(String(describing: error))")
        }
        #expect(fileBytes(files[1]) == sealed, "never cut")
    }

    /// Past the committed head, a whole valid frame holding the wrong position (a frame of a
    /// batch that never committed, out of place) is part of the torn tail: verify calls the log
    /// intact with a tail, and a writer cuts it back to the committed head and goes on.
    @Test func aFrameOutOfSequencePastTheCommittedHeadIsPartOfTheTornTail() throws {
        let story = try Story()
        let full = story.segments[2]
        let starts = Self.frameStarts(full)
        // Record 6 (the first frame past the head of batch 2) left out: record 7 follows record 5.
        let skipped = Array(full[..<starts[5]]) + Array(full[starts[6]...])
        let dir = try story.copy(segment: skipped, checkpoint: story.checkpoints[1])
        let report = LogVerifier.verify(directory: dir.path)
        #expect(report.isIntact && report.head.position == 5 && report.tail?.contains("where 6 was expected") == true,
                "\(String(describing: report.damage)) \(String(describing: report.tail))")
        let log = try EventLog(directory: dir.path)
        #expect(log.head.position == 5 && log.recovery.truncatedBytes == skipped.count - story.ends[1])
        #expect(fileBytes(segmentFiles(of: dir.path)[0]) == story.segments[1])
        // The same bytes with the checkpoint of batch 3 are lost committed records, never cut.
        let lost = try story.copy(segment: skipped, checkpoint: story.checkpoints[2])
        #expect(LogVerifier.verify(directory: lost.path).damage?.position == 6)
        #expect(throws: EventStoreError.self) { try EventLog(directory: lost.path) }
        #expect(fileBytes(segmentFiles(of: lost.path)[0]) == skipped)
    }

    /// The two slots alternate across handles too: a writer that opens a log takes the slot not
    /// holding the newest head, so a torn write of its checkpoint loses the line of its own batch
    /// at most, never that of the batch before it.
    @Test func aNewWritersFirstCheckpointLeavesTheNewestSlotAlone() throws {
        let story = try Story()
        let dir = try story.copy(segment: story.segments[2], checkpoint: story.checkpoints[2])
        let checkpoint = dir.path + "/segments/committed-head"
        for (n, size) in [1, 2, 3].enumerated() {
            let before = try EventLog(directory: dir.path, access: .read).head
            do { try EventLog(directory: dir.path).append(proposed(size, prefix: "new\(n)-")) }   // one handle, one batch
            let newest = try #require({ if case .head(let r) = try CommittedHead.read(path: checkpoint) { r } else { nil } }())
            #expect(newest.head.position == before.position + UInt64(size))
            // The write of the newest slot torn: the other slot still names the head before it.
            var torn = fileBytes(checkpoint)
            torn[newest.slot * CommittedHead.slotSize + 30] ^= 0xFF
            let spoiled = try story.copy(segment: fileBytes(segmentFiles(of: dir.path)[0]), checkpoint: torn)
            #expect(try EventLog(directory: spoiled.path, access: .read).committedHead == before, "batch \(n)")
        }
    }

    /// A slot is this format's only if it starts with `LDGHEAD1`: one of another format or version
    /// (whose own CRC is right) is not read as a head, and the other slot answers.
    @Test func aSlotWithAnotherMagicIsNotTakenForAHead() throws {
        let story = try Story()
        let newest = try #require({ if case .head(let r) = try CommittedHead.read(path: story.dir.path + "/segments/committed-head") { r } else { nil } }())
        var checkpoint = story.checkpoints[2]
        for magic in ["LDGHEAD2", "XXXXXXXX", "\0\0\0\0\0\0\0\0"] {
            var slot = CommittedHead.slot(LogHead(position: 1_000, hash: newest.head.hash))
            slot.replaceSubrange(0..<8, with: Array(magic.utf8))
            let crc = slot[0..<48].withUnsafeBytes { CRC32C.checksum($0) }
            slot.replaceSubrange(48..<52, with: withUnsafeBytes(of: crc.littleEndian) { Array($0) })
            checkpoint.replaceSubrange((newest.slot * CommittedHead.slotSize)..<((newest.slot + 1) * CommittedHead.slotSize), with: slot)
            let dir = try story.copy(segment: story.segments[2], checkpoint: checkpoint)
            #expect(try EventLog(directory: dir.path, access: .read).committedHead?.position == 5, "magic \(magic)")
            #expect(LogVerifier.verify(directory: dir.path).isIntact, "magic \(magic)")
        }
    }
}
