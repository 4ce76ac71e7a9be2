import Foundation
import Testing
import TestKit
@testable import EventStore

@Suite struct TornTailRecovery {
    /// Batches of sizes 1, 2, 3 (six records); the file is cut at every byte after the first batch.
    @Test func cutAtEveryByteOfTheLastRecordsKeepsEveryWholeBatch() throws {
        let source = Scratch()
        var boundaries: [(end: Int, records: Int)] = []
        // The checkpoint as the first batch left it: a crash during a later batch leaves it there.
        var checkpoint: [UInt8] = []
        do {
            let log = try EventLog(directory: source.path)
            var count = 0
            for (b, size) in [1, 2, 3].enumerated() {
                try log.append(proposed(size, prefix: "b\(b)-"))
                count += size
                boundaries.append((fileBytes(segmentFiles(of: source.path)[0]).count, count))
                if b == 0 { checkpoint = fileBytes(source.path + "/segments/committed-head") }
            }
        }
        let full = fileBytes(segmentFiles(of: source.path)[0])
        for cut in boundaries[0].end..<full.count {
            let dir = Scratch()
            try FileManager.default.createDirectory(atPath: dir.path + "/segments", withIntermediateDirectories: true)
            let path = dir.path + "/segments/" + LogFormat.segmentName(base: 1)
            writeFileBytes(path, Array(full[..<cut]))
            writeFileBytes(dir.path + "/segments/committed-head", checkpoint)
            let kept = boundaries.last { $0.end <= cut }!
            let log = try EventLog(directory: dir.path)
            #expect(log.head.position == UInt64(kept.records), "cut at \(cut)")
            #expect(log.recovery.truncatedBytes == cut - kept.end, "cut at \(cut)")
            #expect(fileBytes(path).count == kept.end)
            try log.append([ProposedRecord(id: "new", stream: "s", payload: [7])])
            let reread = try EventLog(directory: dir.path).records()
            #expect(reread.count == kept.records + 1 && reread.last?.id == "new")
            #expect(LogVerifier.verify(directory: dir.path).isIntact)
        }
    }

    @Test func zeroFilledTailIsTreatedAsTorn() throws {
        let dir = Scratch()
        do { try EventLog(directory: dir.path).append(proposed(3)) }
        let path = segmentFiles(of: dir.path)[0]
        writeFileBytes(path, fileBytes(path) + [UInt8](repeating: 0, count: 4096))
        let log = try EventLog(directory: dir.path)
        #expect(log.head.position == 3 && log.recovery.truncatedBytes == 4096)
    }
}

@Suite struct DamageDetection {
    /// Flip one byte at every offset of every record after the segment header.
    @Test func flippedByteAnywhereIsNamedByReadsVerifyAndOpen() throws {
        let source = Scratch()
        do {
            let log = try EventLog(directory: source.path)
            for b in 0..<3 { try log.append(proposed(2, prefix: "b\(b)-", size: 10)) }
        }
        let segment = segmentFiles(of: source.path)[0]
        let full = fileBytes(segment)
        // Frame start offsets, to know which record a byte belongs to.
        var starts: [Int] = []
        var o = LogFormat.segmentHeaderSize
        while o < full.count { starts.append(o); o += LogFormat.frameHeaderSize + Int(full[o]) | Int(full[o + 1]) << 8 }
        for at in LogFormat.segmentHeaderSize..<full.count {
            let dir = Scratch()
            try FileManager.default.createDirectory(atPath: dir.path + "/segments", withIntermediateDirectories: true)
            let path = dir.path + "/segments/" + LogFormat.segmentName(base: 1)
            var damaged = full
            damaged[at] ^= 0x5A
            writeFileBytes(path, damaged)
            let record = starts.lastIndex { $0 <= at }!
            let report = LogVerifier.verify(directory: dir.path)
            #expect(report.damage?.position == UInt64(record + 1), "byte \(at)")
            #expect(report.damage?.offset == starts[record], "byte \(at)")
            let openError = #expect(throws: EventStoreError.self, "byte \(at)") { try EventLog(directory: dir.path) }
            #expect(openError?.code == .damaged && openError?.offset == starts[record])
            #expect(openError?.path == path)
        }
    }

    @Test func readsRefuseARecordDamagedAfterOpen() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        try log.append(proposed(5, size: 10))
        let path = segmentFiles(of: dir.path)[0]
        var b = fileBytes(path)
        b[b.count - 3] ^= 1
        writeFileBytes(path, b)
        var served: [UInt64] = []
        let error = #expect(throws: EventStoreError.self) { try log.forEach { served.append($0.position) } }
        // Record 4 is served only once record 5 vouches for it (commits to its hash): 5 is damaged, so 4 is not.
        #expect(served == [1, 2, 3])
        #expect(error?.position == 5)
        #expect(throws: EventStoreError.self) { try log.records(inStream: "user-4") }
    }

    @Test func aRemovedMiddleSegmentIsNamed() throws {
        let dir = Scratch()
        var options = EventLog.Options()
        options.segmentSize = 300
        do {
            let log = try EventLog(directory: dir.path, options: options)
            for b in 0..<6 { try log.append(proposed(2, prefix: "b\(b)-")) }
        }
        let files = segmentFiles(of: dir.path)
        #expect(files.count >= 3)
        try FileManager.default.removeItem(atPath: files[1])
        #expect(LogVerifier.verify(directory: dir.path).damage?.message.contains("previous one ends") == true)
        #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path, options: options) }
    }
}

@Suite struct ConcurrentWriters {
    @Test func twoHandlesAppendingAtOnceInterleaveWholeBatchesWithoutGaps() async throws {
        let dir = Scratch()
        let path = dir.path
        _ = try EventLog(directory: path)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let log = try! EventLog(directory: path)
                    for b in 0..<50 {
                        try! log.append(proposed(4, prefix: "w\(writer)-b\(b)-"))
                        // the same ids again: must be duplicates, whoever wrote them
                        if b % 10 == 0 { #expect(try! log.append(proposed(4, prefix: "w\(writer)-b\(b)-")).appended.isEmpty) }
                    }
                }
            }
        }
        let all = try EventLog(directory: path).records()
        #expect(all.count == 400)
        #expect(all.map(\.position) == Array(1...400))
        #expect(Set(all.map(\.id)).count == 400)
        #expect(LogVerifier.verify(directory: path).isIntact)
    }
}

/// A read handle without indexes (a full rebuild's) checks only the last segment at open; every
/// other frame is checked as it is read, so damage is still named, only later.
@Suite struct ScanHandleWithoutIndexes {
    static func multiSegmentLog(_ dir: Scratch) throws -> EventLog.Options {
        var options = EventLog.Options()
        options.segmentSize = 300
        let log = try EventLog(directory: dir.path, options: options)
        for b in 0..<6 { try log.append(proposed(2, prefix: "b\(b)-")) }
        var scan = options
        scan.indexes = false
        return scan
    }

    @Test func readsEveryRecordOfEverySegmentFromAnyPosition() throws {
        let dir = Scratch()
        let options = try Self.multiSegmentLog(dir)
        #expect(segmentFiles(of: dir.path).count >= 3)
        let log = try EventLog(directory: dir.path, access: .read, options: options)
        #expect(log.head.position == 12)
        #expect(try log.records().map(\.id) == (0..<6).flatMap { b in ["b\(b)-0", "b\(b)-1"] })
        for from in UInt64(1)...13 {
            #expect(try log.records(from: from).map(\.position) == Array(from...max(from, 12)).filter { $0 <= 12 })
        }
    }

    @Test func aFlippedByteInASealedSegmentIsNamedByTheRead() throws {
        let dir = Scratch()
        let options = try Self.multiSegmentLog(dir)
        let first = segmentFiles(of: dir.path)[0]
        var b = fileBytes(first)
        b[b.count - 5] ^= 0x10
        writeFileBytes(first, b)
        let log = try EventLog(directory: dir.path, access: .read, options: options)
        let error = #expect(throws: EventStoreError.self) { try log.forEach { _ in } }
        #expect(error?.code == .damaged && error?.path == first && error?.position != nil)
    }

    @Test func aRemovedMiddleSegmentIsNamedByTheRead() throws {
        let dir = Scratch()
        let options = try Self.multiSegmentLog(dir)
        let files = segmentFiles(of: dir.path)
        try FileManager.default.removeItem(atPath: files[1])
        let log = try EventLog(directory: dir.path, access: .read, options: options)
        let error = #expect(throws: EventStoreError.self) { try log.forEach { _ in } }
        #expect(error?.code == .damaged && error?.message.contains("previous one ends") == true)
    }
}
