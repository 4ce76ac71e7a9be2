import Foundation
import Platform
import Testing
import TestKit
@testable import EventStore

/// The check of the last segment at open (docs/log-format.md, "Fault model"): bodies'
/// CRCs three at a time, and a long segment checked in two halves on two cores. Whatever the
/// split, the damage named is the first, as one pass over the frames names it.
@Suite struct LastSegmentCheck {
    /// A one-segment log of `count` records with payloads of `size` bytes; the writer saves its
    /// index files as it closes. Returns the segment's path and bytes.
    @discardableResult
    static func build(_ dir: String, count: Int, size: Int) throws -> (path: String, bytes: [UInt8]) {
        do {
            let log = try EventLog(directory: dir)
            for start in stride(from: 0, to: count, by: 1000) {
                try log.append(proposed(min(1000, count - start), prefix: "r\(start)-", size: size))
            }
        }
        let path = segmentFiles(of: dir)[0]
        return (path, fileBytes(path))
    }

    /// The offset of every frame of a segment's bytes.
    static func frameStarts(_ b: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var o = LogFormat.segmentHeaderSize
        while o + LogFormat.frameHeaderSize <= b.count {
            starts.append(o)
            o += LogFormat.frameHeaderSize + b.withUnsafeBytes { Int($0.le32(o)) }
        }
        return starts
    }

    @Test func threeChecksumsAtOnceEqualTheTablesForEveryLengthAndAlignment() {
        let seed: UInt64 = 0x5EED_C3C3
        var random = SplitMix64(seed: seed)
        let data = (0..<1200).map { _ in UInt8.random(in: 0...255, using: &random) }
        data.withUnsafeBytes { all in
            for _ in 0..<2000 {
                let slices = (0..<3).map { _ -> UnsafeRawBufferPointer in
                    let start = Int.random(in: 0..<8, using: &random)
                    return UnsafeRawBufferPointer(rebasing: all[start..<(start + Int.random(in: 0...400, using: &random))])
                }
                let (a, b, c) = CRC32C.checksums(slices[0], slices[1], slices[2])
                #expect([a, b, c] == slices.map { CRC32C.softwareChecksum($0) }, "seed \(seed), lengths \(slices.map(\.count))")
            }
        }
    }

    /// One byte flipped in every frame (its length, its header CRC, its body CRC, its position,
    /// its id length, a payload byte), the segment checked in halves split at its 20th record:
    /// the error is the one pass's, at the offset and position `verify` names.
    @Test func damageInEitherHalfIsNamedAsOnePassNamesIt() throws {
        let source = Scratch()
        let sound = try Self.build(source.path, count: 40, size: 30).bytes
        let starts = Self.frameStarts(sound)
        #expect(starts.count == 40)
        let midway = (position: UInt64(21), offset: starts[20])
        for (record, start) in starts.enumerated() {
            for within in [0, 5, 9, 12, 12 + 29, 12 + 70] {
                let dir = Scratch()
                try FileManager.default.createDirectory(atPath: dir.path + "/segments", withIntermediateDirectories: true)
                let path = dir.path + "/segments/" + LogFormat.segmentName(base: 1)
                var damaged = sound
                damaged[start + within] ^= 0x21
                writeFileBytes(path, damaged)
                let file = try PlatformFile(path: path, mode: .readOnly)
                let onePass = #expect(throws: EventStoreError.self) {
                    try EventLog.checkFrames(of: file, path: path, from: LogFormat.segmentHeaderSize, to: sound.count, firstPosition: 1)
                }
                let halves = #expect(throws: EventStoreError.self) {
                    try EventLog.checkFramesOnBothCores(of: file, path: path, from: LogFormat.segmentHeaderSize, to: sound.count,
                                                        firstPosition: 1, midway: midway, splittingFrom: 0)
                }
                let verified = LogVerifier.verify(directory: dir.path).damage
                #expect(halves?.description == onePass?.description, "record \(record + 1), byte \(within)")
                #expect(halves?.offset == start && halves?.position == UInt64(record + 1), "record \(record + 1), byte \(within)")
                #expect(verified?.offset == start && verified?.position == UInt64(record + 1), "record \(record + 1), byte \(within)")
            }
        }
    }

    /// A sample that is not where it says (inside a frame, another position) costs a second pass, never a false alarm.
    @Test func aSoundSegmentPassesWhateverTheSampleSays() throws {
        let dir = Scratch()
        let (path, bytes) = try Self.build(dir.path, count: 40, size: 30)
        let starts = Self.frameStarts(bytes)
        let file = try PlatformFile(path: path, mode: .readOnly)
        #expect(try EventLog.checkFrames(of: file, path: path, from: LogFormat.segmentHeaderSize, to: bytes.count, firstPosition: 1) == 41)
        for midway in [(UInt64(21), starts[20]), (21, starts[20] + 1), (20, starts[20]), (22, starts[20]), (2, starts[1]), (40, starts[39]),
                       (41, bytes.count - 1), (UInt64.max, starts[30])] {
            try EventLog.checkFramesOnBothCores(of: file, path: path, from: LogFormat.segmentHeaderSize, to: bytes.count,
                                                firstPosition: 1, midway: (position: midway.0, offset: midway.1), splittingFrom: 0)
        }
    }

    /// A last segment past the split threshold, opened by a handle that adopts the index files:
    /// damage in its first or second half is named at open, at its record.
    @Test func aHandleAdoptingTheIndexFilesNamesDamageInEitherHalfOfALongLastSegment() throws {
        let dir = Scratch()
        let (path, sound) = try Self.build(dir.path, count: 24_000, size: 200)
        #expect(sound.count > EventLog.splitCheckMinimum)
        let starts = Self.frameStarts(sound)
        var unchecked = EventLog.Options()
        unchecked.checksLastSegmentAtOpen = false
        for record in [0, 5_000, 11_999, 12_500, 20_000, starts.count - 2] {
            var damaged = sound
            damaged[starts[record] + 40] ^= 0x04
            writeFileBytes(path, damaged)
            let error = #expect(throws: EventStoreError.self, "record \(record + 1)") { try EventLog(directory: dir.path, access: .read) }
            #expect(error?.code == .damaged && error?.offset == starts[record] && error?.position == UInt64(record + 1), "record \(record + 1)")
            // The handle adopted the index files: without the check at open it reads nothing of the segment.
            #expect(try EventLog(directory: dir.path, access: .read, options: unchecked).head.position == UInt64(starts.count))
        }
        writeFileBytes(path, sound)
        #expect(try EventLog(directory: dir.path, access: .read).head.position == UInt64(starts.count))
    }
}

/// Frames forged with every CRC recomputed: values no writer makes, which the check must name
/// without trapping and without making a buffer of whatever size a header claims.
@Suite struct LastSegmentCheckForgedFrames {
    /// Rewrites the frame at `start` of `b` through `edit` (on its header and body), then its two CRCs.
    static func forge(_ b: inout [UInt8], at start: Int, _ edit: (inout [UInt8]) -> Void) {
        var frame = Array(b[start...])
        edit(&frame)
        let length = frame.withUnsafeBytes { Int($0.le32(0)) }
        let body = Array(frame[LogFormat.frameHeaderSize..<min(frame.count, LogFormat.frameHeaderSize + length)])
        let bodyCRC = CRC32C.checksum(body)
        withUnsafeBytes(of: bodyCRC.littleEndian) { frame.replaceSubrange(4..<8, with: $0) }
        let headCRC = CRC32C.checksum(Array(frame[0..<8]))
        withUnsafeBytes(of: headCRC.littleEndian) { frame.replaceSubrange(8..<12, with: $0) }
        b.replaceSubrange(start..., with: frame)
    }

    @Test func aFrameClaimingALengthPastTheCommittedRecordsIsNamedWhereItStarts() throws {
        let dir = Scratch()
        let (path, sound) = try LastSegmentCheck.build(dir.path, count: 3_000, size: 200)
        var bytes = sound
        #expect(bytes.count > 3 * (512 << 10) / 2, "the forged frame must not sit in the check's last chunk")
        let starts = LastSegmentCheck.frameStarts(bytes)
        let at = starts[100]
        // The body CRC is computed over what follows, as far as the file goes: the header checks.
        Self.forge(&bytes, at: at) { frame in withUnsafeBytes(of: UInt32(0xF000_0000).littleEndian) { frame.replaceSubrange(0..<4, with: $0) } }
        writeFileBytes(path, bytes)
        let file = try PlatformFile(path: path, mode: .readOnly)
        let error = #expect(throws: EventStoreError.self) {
            try EventLog.checkFrames(of: file, path: path, from: LogFormat.segmentHeaderSize, to: bytes.count, firstPosition: 1)
        }
        #expect(error?.offset == at && error?.position == 101)
        #expect(error?.description.contains("frame body cut short") == true, "\(String(describing: error))")
        #expect(LogVerifier.verify(directory: dir.path).damage?.offset == at)
    }

    @Test func aRecordHoldingTheLastPositionThereIsIsFollowedByDamageNotATrap() throws {
        let dir = Scratch()
        let (path, sound) = try LastSegmentCheck.build(dir.path, count: 5, size: 30)
        var bytes = sound
        let starts = LastSegmentCheck.frameStarts(bytes)
        Self.forge(&bytes, at: starts[0]) { frame in
            withUnsafeBytes(of: UInt64.max.littleEndian) { frame.replaceSubrange(12..<20, with: $0) }
        }
        writeFileBytes(path, bytes)
        let file = try PlatformFile(path: path, mode: .readOnly)
        let error = #expect(throws: EventStoreError.self) {
            try EventLog.checkFrames(of: file, path: path, from: LogFormat.segmentHeaderSize, to: bytes.count, firstPosition: .max)
        }
        #expect(error?.offset == starts[1])
    }
}

/// Damage the last segment's check finds is the log's, whatever else is wrong: the handle names it
/// at once instead of dropping the index files and scanning every segment (at 10 M events, about
/// 38 s before the same kind of error).
@Suite struct LastSegmentDamageAtOpen {
    @Test func damageInTheLastSegmentIsNamedWithoutScanningTheSealedSegmentsBehindTheIndexFiles() throws {
        let (dir, files) = try severalSegmentLog()
        // A sealed segment damaged too: a scan of every segment would name it first.
        for path in [files[1], files[files.count - 1]] {
            var bytes = fileBytes(path)
            let starts = LastSegmentCheck.frameStarts(bytes)
            bytes[starts[0] + 40] ^= 0x08
            writeFileBytes(path, bytes)
        }
        let error = #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: .read) }
        #expect(error?.path == files[files.count - 1] && error?.code == .damaged, "\(String(describing: error))")
        // Without index files the scan reads every segment and names the first damage.
        try FileManager.default.removeItem(atPath: dir.path + "/indexes")
        let scanned = #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, access: .read) }
        #expect(scanned?.path == files[1], "\(String(describing: scanned))")
    }
}
