import Foundation
import Testing
import TestKit
@_spi(Testing) @testable import EventStore
import SubscriptionDomain
@testable import Projections
import Ingest

/// The importer reads its input in pieces through one bounded buffer: rejected lines go
/// to the sink as they are found and a line over the limit is never held whole; reasons are one
/// line; a failed append leaves a summary of what was committed and names the first line not in.
@Suite struct ImporterStreaming {
    /// A log whose records hold at most 512 bytes: the importer's line limit is then 1,024.
    static func smallLog() throws -> (Scratch, EventLog) {
        let dir = Scratch()
        var options = EventLog.Options()
        options.maxRecordSize = 512
        return (dir, try EventLog(directory: dir.log, options: options))
    }

    static func event(_ id: String, note: String = "") -> String {
        #"{"id":"\#(id)","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z","data":{"note":"\#(note)"}}"#
    }

    struct Outcome: Equatable {
        var summary: EventImporter.Summary
        var rejections: [EventImporter.Rejection]
        var lines: [[UInt8]]
        var ids: [String]
    }

    static func run(_ input: [UInt8], readSize: Int, batchSize: Int = 3) throws -> (Outcome, largestPiece: Int) {
        let (dir, log) = try smallLog()
        var importer = EventImporter(log: log)
        importer.readSize = readSize
        importer.batchSize = batchSize
        var summary = EventImporter.Summary()
        var kept = RejectedLineCollector()
        try importer.importLines(input, file: "in.jsonl", rejected: &kept, into: &summary)
        let ids = try EventLog(directory: dir.log, access: .read).records().map(\.id)
        return (Outcome(summary: summary, rejections: kept.rejections, lines: kept.lines, ids: ids), kept.pieceSizes.max() ?? 0)
    }

    /// Good, bad, blank and CRLF lines, lines at the limit and one byte over, long lines with a
    /// \r at the end, and a last line without a newline.
    static let input: [UInt8] = {
        let atLimit = event("at", note: String(repeating: "n", count: 1024 - event("at").utf8.count))
        var lines: [[UInt8]] = [
            Array(event("e1").utf8), Array("not json".utf8), [], Array("   ".utf8), Array((event("e2") + "\r").utf8),
            Array(atLimit.utf8), Array(atLimit.utf8) + [0x20], [UInt8](repeating: 0x78, count: 3000) + [0x0D],
            Array(event("e3").utf8), Array(event("big", note: String(repeating: "b", count: 5000)).utf8) + [0x0D, 0x0D],
            Array(event("e4", note: String(repeating: "r", count: 600)).utf8),
        ]
        lines.append(Array(event("last").utf8))
        return Array(lines.map { $0 + [0x0A] }.joined().dropLast())
    }()

    @Test func everyReadSizeGivesTheSameLinesRejectionsAndRecords() throws {
        let (expected, _) = try Self.run(Self.input, readSize: 1 << 20)
        let limit = "over the import limit of 1024 bytes a line (the log's records hold at most 512)"
        #expect(expected.rejections.map(\.description) == [
            "in.jsonl:2: expected '{' (an event is a JSON object) (column 1)",
            "in.jsonl:6: event is 1091 bytes, over the log's record limit of 512",
            "in.jsonl:7: line is 1025 bytes, \(limit)",
            "in.jsonl:8: line is 3001 bytes, \(limit)",
            "in.jsonl:10: line is \(Self.event("big", note: String(repeating: "b", count: 5000)).utf8.count + 2) bytes, \(limit)",
            "in.jsonl:11: event is 763 bytes, over the log's record limit of 512",
        ])
        let lines = Self.input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        // Kept verbatim, without the line end (\n or \r\n).
        #expect(expected.lines == [lines[1], lines[5], lines[6], Array(lines[7].dropLast()), Array(lines[9].dropLast()), lines[10]])
        #expect(expected.ids == ["e1", "e2", "e3", "last"])
        #expect(expected.summary.appended == 4 && expected.summary.rejected == 6)
        for readSize in [1, 2, 3, 7, 64, 1000, 1025, 4096] {
            let (outcome, largest) = try Self.run(Self.input, readSize: readSize)
            #expect(outcome == expected, "read size \(readSize)")
            #expect(largest <= 1024 + readSize, "read size \(readSize)")
        }
    }

    /// A line of 100 times the limit, as valid JSON and as garbage: the sink gets it in pieces no
    /// larger than the importer's buffer, so the line is never held whole, and it is kept intact.
    @Test func aLineOverTheLimitIsStreamedToTheSinkInPiecesNeverHeldWhole() throws {
        let valid = Array(Self.event("huge", note: String(repeating: "h", count: 102_400)).utf8)
        let garbage = [UInt8](repeating: 0xFF, count: 102_400)
        let input = Array(Self.event("a").utf8) + [0x0A] + valid + [0x0A] + garbage + [0x0A] + Array(Self.event("b").utf8)
        for readSize in [100, 4096] {
            let (outcome, largest) = try Self.run(input, readSize: readSize)
            #expect(largest <= 1024 + readSize)
            #expect(outcome.lines == [valid, garbage])
            #expect(outcome.rejections.map(\.line) == [2, 3])
            #expect(outcome.rejections[0].reason.hasPrefix("line is \(valid.count) bytes, over the import limit of 1024"))
            #expect(outcome.ids == ["a", "b"])
        }
    }

    @Test func aReasonQuotingTheLineIsOneLineAndCut() throws {
        let odd = #"{"id":"x","type":"a\nb\u0000c\td\u001f\u007f\u0085\u2028\\","user":"u","time":"2026-01-01T00:00:00Z"}"#
        let long = #"{"id":"y","type":""# + String(repeating: "x", count: 900) + #"","user":"u","time":"2026-01-01T00:00:00Z"}"#
        let (outcome, _) = try Self.run(Array((odd + "\n" + long).utf8), readSize: 64)
        #expect(outcome.rejections.map(\.reason) == [
            #"unknown event type 'a\nb\u0000c\td\u001f\u007f\u0085\u2028\\'"#,
            "unknown event type '" + String(repeating: "x", count: EventImporter.reasonLimit - 20) + "…(421 more characters)",
        ])
        let file = EventImporter.Rejection(file: "a\nb.jsonl", line: 3, reason: "r")
        #expect(file.description == #"a\nb.jsonl:3: r"#)
        #expect(OneLine.escaped("plain é ✓") == "plain é ✓")
        #expect(OneLine.escaped("\r\n\u{0}\u{1B}\u{9F}\u{2029}\\") == #"\r\n\u0000\u001b\u009f\u2029\\"#)
    }

    /// The disk fills on the second batch (the append test hook): the first batch and the
    /// rejected line before the failure are counted, the log holds exactly them, and the error
    /// names the first line of the batch that did not go in. Importing again completes the file.
    @Test func aFailedAppendKeepsTheCommittedSummaryAndNamesTheFirstLineNotIn() throws {
        let (dir, log) = try Self.smallLog()
        let input = Array(([Self.event("e1"), "bad", Self.event("e2"), Self.event("e3"), "also bad", Self.event("e4"), Self.event("e5")]
            .joined(separator: "\n")).utf8)
        var importer = EventImporter(log: log)
        importer.batchSize = 2
        var summary = EventImporter.Summary()
        var kept = RejectedLineCollector()
        let error = #expect(throws: ImportInterrupted.self) {
            try importer.importLines(input, file: "in.jsonl", rejected: &kept, into: &summary) { _ in log.failWritesAfterBytes = 10 }
        }
        #expect(error?.line == 4 && error?.file == "in.jsonl")
        #expect((error?.underlying as? EventStoreError)?.code == .io)
        #expect(error?.description.hasPrefix("in.jsonl:4: import stopped, nothing from this line on was appended: ") == true)
        #expect(summary.appended == 2 && summary.duplicates == 0 && summary.rejected == 2)
        #expect(kept.rejections.map(\.line) == [2, 5])
        #expect(try EventLog(directory: dir.log, access: .read).records().map(\.id) == ["e1", "e2"])

        log.failWritesAfterBytes = nil
        var again = EventImporter.Summary()
        try importer.importLines(input, file: "in.jsonl", into: &again)
        #expect(again.appended == 3 && again.duplicates == 2 && again.rejected == 2)
    }
}
