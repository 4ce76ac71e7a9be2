import Foundation
import Testing
import TestKit
@_spi(Testing) @testable import EventStore

func proposed(_ n: Int, stream: String? = nil, prefix: String = "e", size: Int = 40) -> [ProposedRecord] {
    (0..<n).map { i in
        ProposedRecord(id: "\(prefix)\(i)", stream: stream ?? "user-\(i % 7)",
                       payload: Array(String(repeating: "x", count: size).utf8) + Array("#\(i)".utf8))
    }
}

@Suite struct EventLogBehaviour {
    @Test func appendedRecordsReadBackWithGaplessPositionsAndVersions() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        let receipt = try log.append(proposed(20))
        #expect(receipt.appended.map(\.position) == Array(1...20))
        let all = try log.records()
        #expect(all.map(\.position) == Array(1...20))
        #expect(all.map(\.id) == (0..<20).map { "e\($0)" })
        #expect(all[8].stream == "user-1" && all[8].version == 2)
        #expect(all[3].payload == Array(String(repeating: "x", count: 40).utf8) + Array("#3".utf8))
        #expect(try log.records(inStream: "user-3").map(\.position) == [4, 11, 18])
        #expect(log.head.position == 20)
    }

    @Test func segmentsRollAndSurviveReopen() throws {
        let dir = Scratch()
        let options = try smallSegmentLog(dir.path, segmentSize: 1_000, batches: 10, perBatch: 3)
        #expect(segmentFiles(of: dir.path).count > 3)
        let reopened = try EventLog(directory: dir.path, options: options)
        #expect(reopened.head.position == 30)
        #expect(try reopened.records(from: 17).map(\.position) == Array(17...30))
        #expect(try reopened.records(inStream: "user-0").count == 10)
        try reopened.append(proposed(1, prefix: "after"))
        #expect(try reopened.records().count == 31)
        #expect(LogVerifier.verify(directory: dir.path).head == reopened.head)
    }

    @Test func duplicateIdsAreRecognisedAfterReopen() throws {
        let dir = Scratch()
        do { try EventLog(directory: dir.path).append(proposed(5)) }
        let log = try EventLog(directory: dir.path)
        let receipt = try log.append(proposed(7))
        #expect(receipt.duplicates.map(\.id) == (0..<5).map { "e\($0)" })
        #expect(receipt.duplicates.map(\.existingPosition) == [1, 2, 3, 4, 5])
        #expect(receipt.appended.map(\.id) == ["e5", "e6"])
        #expect(log.head.position == 7)
    }

    @Test func duplicateWithinOneBatchIsWrittenOnce() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        let r = ProposedRecord(id: "same", stream: "s", payload: [1])
        let receipt = try log.append([r, r])
        #expect(receipt.appended.count == 1 && receipt.duplicates.count == 1)
        #expect(receipt.duplicates[0].existingPosition == 1)
    }

    @Test func wrongExpectedVersionAppendsNothingAndSaysWhy() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        try log.append(proposed(2, stream: "u1"), expecting: ["u1": .noStream])
        #expect(try log.version(of: "u1") == 2)
        let error = #expect(throws: EventStoreError.self) {
            try log.append(proposed(1, stream: "u1", prefix: "x"), expecting: ["u1": .exactly(1)])
        }
        #expect(error?.code == .wrongExpectedVersion)
        #expect(error?.message == "stream 'u1': expected version 1, actual version 2")
        #expect(throws: EventStoreError.self) { try log.append(proposed(1, stream: "u1", prefix: "y"), expecting: ["u1": .noStream]) }
        #expect(log.head.position == 2)
        try log.append(proposed(1, stream: "u1", prefix: "z"), expecting: ["u1": .exactly(2)])
        #expect(try EventLog(directory: dir.path).head.position == 3)
    }

    @Test func recordPastTheSizeLimitIsRefusedWithItsSize() throws {
        let dir = Scratch()
        var options = EventLog.Options()
        options.maxRecordSize = 200
        let log = try EventLog(directory: dir.path, options: options)
        let error = #expect(throws: EventStoreError.self) { try log.append(proposed(1, size: 300)) }
        #expect(error?.code == .recordTooLarge)
        #expect(error?.message.contains("over the limit of 200") == true)
        #expect(log.head.position == 0)
    }

    @Test func failedWriteLeavesTheLogAsItWas() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        try log.append(proposed(3))
        let before = fileBytes(segmentFiles(of: dir.path)[0])
        log.failWritesAfterBytes = 50
        #expect(throws: EventStoreError.self) { try log.append(proposed(3, prefix: "f")) }
        #expect(fileBytes(segmentFiles(of: dir.path)[0]) == before)
        log.failWritesAfterBytes = nil
        try log.append(proposed(3, prefix: "f"))
        #expect(try EventLog(directory: dir.path).records().map(\.id) == ["e0", "e1", "e2", "f0", "f1", "f2"])
    }

    @Test func unknownFormatVersionIsRefusedClearly() throws {
        let dir = Scratch()
        do { try EventLog(directory: dir.path).append(proposed(1)) }
        let path = segmentFiles(of: dir.path)[0]
        var b = fileBytes(path)
        b[8] = 9
        writeFileBytes(path, b)
        let error = #expect(throws: EventStoreError.self) { try EventLog(directory: dir.path) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.description.contains("format version 9 is not supported") == true)
    }

    @Test func headHashIsTheChainValueVerifyRecomputes() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        try log.append(proposed(10))
        let report = LogVerifier.verify(directory: dir.path)
        #expect(report.isIntact && report.records == 10)
        #expect(report.head == log.head)
        #expect(log.head.hash != .zero)
    }

    @Test func secondNonWaitingWriterGetsAClearError() throws {
        let dir = Scratch()
        let first = try EventLog(directory: dir.path)
        var options = EventLog.Options()
        options.waitForLock = false
        let second = try EventLog(directory: dir.path, options: options)
        try first.lockFile!.lockExclusive(wait: true)
        let error = #expect(throws: EventStoreError.self) { try second.append(proposed(1)) }
        #expect(error?.code == .locked)
        first.lockFile!.unlock()
        try second.append(proposed(1))
        #expect(second.head.position == 1)
    }

    @Test func catchUpFromAPositionReadsOnlyTheRecordsNearIt() throws {
        let dir = Scratch()
        var options = EventLog.Options()
        options.segmentSize = 100_000
        do {
            let log = try EventLog(directory: dir.path, options: options)
            for b in 0..<50 { try log.append(proposed(100, prefix: "b\(b)-")) }
        }
        let log = try EventLog(directory: dir.path, options: options)
        #expect(segmentFiles(of: dir.path).count > 3)
        for from: UInt64 in [1, 1024, 1025, 2500, 4990, 5000] {
            let before = log.framesRead
            let got = try log.records(from: from).map(\.position)
            #expect(got == Array(from...5000))
            #expect(log.framesRead - before <= got.count + 1023, "from \(from)")
        }
    }

    @Test func readerSeesOnlyCommittedRecordsAndRefreshes() throws {
        let dir = Scratch()
        let writer = try EventLog(directory: dir.path)
        try writer.append(proposed(4))
        let reader = try EventLog(directory: dir.path, access: .read)
        #expect(reader.head.position == 4)
        try writer.append(proposed(4, prefix: "n"))
        #expect(try reader.records().count == 4)
        try reader.refresh()
        #expect(try reader.records().count == 8)
        #expect(throws: EventStoreError.self) { try reader.append(proposed(1, prefix: "r")) }
    }
}
