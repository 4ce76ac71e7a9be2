import Foundation
import Platform
import Testing
import TestKit
@testable import EventStore

/// The last segment's check at open against damage that a single flipped byte does not make:
/// two damaged frames in one chunk, a record removed (every CRC sound, a position missing), the
/// reason a flipped byte is given, and the headers of the segments an adopting handle opens.
@Suite struct LastSegmentCheckEdges {
    /// Writes `bytes` as the only segment of a new folder; returns its path and an open file.
    static func lone(_ bytes: [UInt8], in dir: Scratch) throws -> (path: String, file: PlatformFile) {
        try FileManager.default.createDirectory(atPath: dir.path + "/segments", withIntermediateDirectories: true)
        let path = dir.path + "/segments/" + LogFormat.segmentName(base: 1)
        writeFileBytes(path, bytes)
        return (path, try PlatformFile(path: path, mode: .readOnly))
    }

    /// A payload byte of one record (its body's CRC alone fails) and a byte of a later frame's
    /// header, position or lengths, in the same chunk: the earlier record is named, as `verify` names it.
    @Test func aBodyDamagedEarlierIsNamedBeforeALaterFramesOwnFailure() throws {
        let seed: UInt64 = 0x5EED_0B0D
        var random = SplitMix64(seed: seed)
        let source = Scratch()
        let sound = try LastSegmentCheck.build(source.path, count: 40, size: 30).bytes
        let starts = LastSegmentCheck.frameStarts(sound)
        let ends = Array(starts.dropFirst()) + [sound.count]
        for trial in 0..<60 {
            let first = random.below(39)
            let later = first + 1 + random.below(39 - first)
            let payloadByte = starts[first] + LogFormat.frameHeaderSize + 32 + random.below(ends[first] - starts[first] - LogFormat.frameHeaderSize - 32)
            let ownByte = starts[later] + [0, 4, 8, 12, 12 + 7, 12 + 28, 12 + 29, 12 + 31][random.below(8)]
            var damaged = sound
            damaged[payloadByte] ^= 0x10
            damaged[ownByte] ^= 0x42
            let dir = Scratch()
            let (path, file) = try Self.lone(damaged, in: dir)
            let context = "seed \(seed), trial \(trial): bytes \(payloadByte) and \(ownByte) (records \(first + 1), \(later + 1))"
            let onePass = #expect(throws: EventStoreError.self, "\(context)") {
                try EventLog.checkFrames(of: file, path: path, from: LogFormat.segmentHeaderSize, to: sound.count, firstPosition: 1)
            }
            let halves = #expect(throws: EventStoreError.self, "\(context)") {
                try EventLog.checkFramesOnBothCores(of: file, path: path, from: LogFormat.segmentHeaderSize, to: sound.count,
                                                    firstPosition: 1, midway: (position: 21, offset: starts[20]), splittingFrom: 0)
            }
            let verified = LogVerifier.verify(directory: dir.path).damage
            #expect(verified?.offset == starts[first] && verified?.position == UInt64(first + 1), "\(context)")
            for error in [onePass, halves] {
                #expect(error?.offset == starts[first] && error?.position == UInt64(first + 1), "\(context)")
                #expect(error?.message == LogFormat.bodyChecksumMismatch, "\(context)")
            }
        }
    }

    /// Every CRC sound, one record cut out of the file: the next is named where the removed one
    /// stood, also when the halves are split at that very place, each half consistent on its own.
    @Test func aRemovedRecordIsNamedEvenWhenTheHalvesMeetWhereItWas() throws {
        let source = Scratch()
        let sound = try LastSegmentCheck.build(source.path, count: 40, size: 30).bytes
        let starts = LastSegmentCheck.frameStarts(sound)
        for removed in [0, 1, 19, 20, 21, 37, 38] {
            var cut = sound
            cut.removeSubrange(starts[removed]..<starts[removed + 1])
            let dir = Scratch()
            let (path, file) = try Self.lone(cut, in: dir)
            let onePass = #expect(throws: EventStoreError.self, "record \(removed + 1) removed") {
                try EventLog.checkFrames(of: file, path: path, from: LogFormat.segmentHeaderSize, to: cut.count, firstPosition: 1)
            }
            #expect(onePass?.offset == starts[removed] && onePass?.position == UInt64(removed + 1), "record \(removed + 1) removed")
            #expect(onePass?.message.contains("holds position \(removed + 2) where \(removed + 1) was expected") == true, "record \(removed + 1) removed")
            // The record after the removed one, at the removed one's offset, as a sample says.
            let halves = #expect(throws: EventStoreError.self, "record \(removed + 1) removed") {
                try EventLog.checkFramesOnBothCores(of: file, path: path, from: LogFormat.segmentHeaderSize, to: cut.count, firstPosition: 1,
                                                    midway: (position: UInt64(removed + 2), offset: starts[removed]), splittingFrom: 0)
            }
            #expect(halves?.description == onePass?.description, "record \(removed + 1) removed")
            let verified = LogVerifier.verify(directory: dir.path).damage
            #expect(verified?.offset == starts[removed] && verified?.position == UInt64(removed + 1), "record \(removed + 1) removed")
        }
    }

    /// A byte of a body flipped (its position, its id or stream length, its payload): the reason
    /// given is the body's CRC, the reason `verify` gives, not what the damaged field then says.
    @Test func aFlippedBodyByteIsNamedAChecksumMismatchAsVerifyNamesIt() throws {
        let source = Scratch()
        let sound = try LastSegmentCheck.build(source.path, count: 12, size: 30).bytes
        let starts = LastSegmentCheck.frameStarts(sound)
        for (record, start) in starts.enumerated() {
            for within in [0, 7, 28, 29, 30, 31, 70].map({ LogFormat.frameHeaderSize + $0 }) {
                var damaged = sound
                damaged[start + within] ^= 0x21
                let dir = Scratch()
                let (path, file) = try Self.lone(damaged, in: dir)
                let error = #expect(throws: EventStoreError.self, "record \(record + 1), byte \(within)") {
                    try EventLog.checkFrames(of: file, path: path, from: LogFormat.segmentHeaderSize, to: sound.count, firstPosition: 1)
                }
                let verified = LogVerifier.verify(directory: dir.path).damage
                #expect(verified?.message == LogFormat.bodyChecksumMismatch, "record \(record + 1), byte \(within)")
                #expect(error?.message == verified?.message && error?.offset == start, "record \(record + 1), byte \(within)")
            }
        }
    }

    /// A log of several segments whose writer saved its index files: a reading handle adopts them,
    /// and a damaged header of any segment, sealed or last, is refused at open, naming that file.
    @Test func aHandleAdoptingTheIndexFilesRefusesADamagedHeaderOfAnySegment() throws {
        let (dir, files) = try severalSegmentLog()
        #expect(FileManager.default.fileExists(atPath: dir.path + "/indexes/" + IndexManifest.fileName))
        for path in [files[0], files[1], files[files.count - 1]] {
            let sound = fileBytes(path)
            for at in [0, 8, 16, 24, 28] {
                var damaged = sound
                damaged[at] ^= 0x01
                writeFileBytes(path, damaged)
                let error = #expect(throws: EventStoreError.self, "\(path), byte \(at)") { try EventLog(directory: dir.path, access: .read) }
                #expect(error?.path == path, "\(path), byte \(at)")
            }
            writeFileBytes(path, sound)
        }
        #expect(try EventLog(directory: dir.path, access: .read).head.position == 30)
    }
}
