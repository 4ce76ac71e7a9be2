import Foundation
import Testing
import TestKit
@_spi(Testing) @testable import EventStore
import SubscriptionDomain
import Population
import EventCodec
@testable import Projections
import Ingest

/// A plain import of canonical lines appends each batch on a second thread while it reads the
/// next (`EventImporter.appendsWhileReading`): whatever the batch size, read size,
/// partition or failing batch, it answers exactly as appending each batch before reading on.
@Suite struct ImportPipeline {
    /// Everything an import leaves: the log's bytes and head, the summary, the rejections, the
    /// rejected lines kept, the progress calls, and the error if it stopped.
    struct Outcome: Equatable {
        /// Each segment's name and the SHA-256 of its bytes.
        var segments: [String: SHA256.Digest]
        var head: LogHead
        var summary: EventImporter.Summary
        var rejections: [EventImporter.Rejection]
        var rejectedLines: [[UInt8]]
        var progress: [Int]
        var error: String?
        var errorLine: Int?
    }

    /// Generated events of 40 users, then the same lines reshuffled with: lines repeated in the
    /// same batch and in later ones, lines already in the log, lines spelled differently from
    /// the canonical form, blank and CRLF lines, bad JSON, a product the catalog lacks, an event
    /// over the record limit, a line over the line limit, and a last line without a newline.
    static let input: [UInt8] = {
        var generator = PopulationGenerator(profile: .handz, users: 40, seed: 7)
        generator.extraPaywallViews = 1
        let events = generator.events().map { EventCodec.encode($0) }
        var lines: [String] = []
        for (k, line) in events.enumerated() {
            lines.append(line)
            if k % 17 == 3 { lines.append(line) }                     // in the same batch
            if k % 29 == 5 { lines.append(events[k / 2]) }            // an earlier batch's
            if k % 31 == 7 { lines.append("not json") }
            if k % 37 == 9 { lines.append("") ; lines.append("  \t") }
            if k % 41 == 11 { lines.append(line + "\r") }
            if k % 43 == 13 {                                          // not canonical: spaces, order
                lines.append(#"{ "user":"respelled-\#(k)", "time":"2026-02-01T10:00:00Z" , "type":"paywall_viewed","id":"re-\#(k)","data":{"context":"onboarding"} }"#)
            }
            if k % 47 == 15 {
                lines.append(#"{"id":"p-\#(k)","type":"purchase","user":"u","time":"2026-02-01T10:00:00Z","data":{"product":"nope","transaction":"t","price":"1.00","currency":"USD","expires":"2026-03-01T10:00:00Z"}}"#)
            }
            if k % 53 == 17 {
                lines.append(#"{"id":"big-\#(k)","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z","data":{"note":"\#(String(repeating: "n", count: 600))"}}"#)
            }
            if k % 59 == 19 { lines.append(String(repeating: "x", count: 1500)) }
            if k % 61 == 21 {                                          // escapes, unknown and off-type fields, numbers
                lines.append(#"{"id":"esc-\#(k)","type":"paywall_viewed","user":"u \"q\" \\ é","time":"2026-02-01T10:00:00.123Z","data":{"context":"a\tb\u2028c\u0001\u007f","custom":{"x":[1, 2]},"product":"handz.pro.monthly","planState":null}}"#)
                lines.append(#"{"id":"cu-\#(k)","type":"credits_used","user":"u_1","time":"2026-02-01T10:00:00Z","data":{"quantity":3}}"#)
                lines.append(#"{"id":"tr-\#(k)","type":"transfer","user":"u_1","time":"2026-02-01T10:00:00Z","data":{"to":"u_2"}}"#)
                lines.append(#"{"id":"rf-\#(k)","type":"refund","user":"u_18","time":"2026-04-19T22:34:00.000001Z","data":{"transaction":"u_18_t4","price":"12.340000","currency":"EUR"},"source":"store"}"#)
                lines.append(#"{"id":"rg-\#(k)","type":"refund","user":"u_18","time":"2026-04-19T22:34:00Z","data":{"transaction":"t","price":"0.5","currency":"USD","errorCode":42},"source":"store"}"#)
            }
        }
        return Array(lines.joined(separator: "\n").utf8)
    }()

    /// The first lines, imported before the run so that some ids are already in the log.
    static var earlier: [UInt8] { Array(input.split(separator: 0x0A).prefix(25).joined(separator: [0x0A])) }

    static func run(pipelined: Bool, batchSize: Int, batchBytes: Int = 8 << 20, readSize: Int = 1 << 20, partition: StreamPartition? = nil,
                    failAfterBatches: Int? = nil) throws -> Outcome {
        let scratch = Scratch()
        let dir = scratch.log
        var options = EventLog.Options()
        options.maxRecordSize = 512
        options.clock = { 1_767_225_600_000 }
        options.secondaryKeys = Replay.secondaryKeys
        let log = try EventLog(directory: dir, options: options)
        var before = EventImporter.Summary()
        try EventImporter(log: log).importLines(earlier, file: "earlier.jsonl", into: &before)

        var importer = EventImporter(log: log)
        importer.batchSize = batchSize
        importer.batchBytes = batchBytes
        importer.readSize = readSize
        importer.partition = partition
        importer.appendsWhileReading = pipelined
        var summary = EventImporter.Summary()
        var kept = RejectedLineCollector()
        var progress: [Int] = []
        if failAfterBatches == 0 { log.failWritesAfterBytes = 10 }
        var error: ImportInterrupted?
        do {
            try importer.importLines(input, file: "in.jsonl", rejected: &kept, into: &summary) { n in
                progress.append(n)
                if progress.count == failAfterBatches { log.failWritesAfterBytes = 10 }
            }
        } catch let e as ImportInterrupted {
            error = e
        }
        var segments: [String: SHA256.Digest] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir + "/segments") where name.hasSuffix(".seg") {
            segments[name] = SHA256.hash([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/segments/" + name))))
        }
        let head = try EventLog(directory: dir, access: .read).head
        let report = LogVerifier.verify(directory: dir)
        #expect(report.damage == nil && report.tail == nil && report.head == head)
        return Outcome(segments: segments, head: head, summary: summary, rejections: kept.rejections, rejectedLines: kept.lines,
                       progress: progress, error: error.map { "\($0.underlying)".replacingOccurrences(of: dir, with: "DIR") }, errorLine: error?.line)
    }

    @Test func theLogsBytesSummaryAndRejectionsEqualAppendingEachBatchBeforeReadingOn() throws {
        for (batchSize, readSize) in [(2, 1 << 20), (5, 7), (64, 1 << 20), (1000, 1 << 20)] {
            let sequential = try Self.run(pipelined: false, batchSize: batchSize, readSize: readSize)
            let pipelined = try Self.run(pipelined: true, batchSize: batchSize, readSize: readSize)
            #expect(pipelined == sequential, "batch size \(batchSize), read size \(readSize)")
            #expect(sequential.summary.appended > 100 && sequential.summary.duplicates > 25 && sequential.summary.rejected > 10)
            #expect(sequential.error == nil && !sequential.segments.isEmpty)
        }
    }

    /// The log's head (position and chain hash, over every byte of every record) for this input
    /// as the single-thread importer wrote it before the pipeline and the encoder's fast paths
    /// (commit 5b84e4d): both paths still write exactly those bytes.
    /// PROPOSED: the input fails to read part way, with a batch in flight: the import stops at the
    /// same line with the same summary and log as appending each batch in turn.
    @Test func aFailingReadStopsTheImportAsAppendingEachBatchInTurn() throws {
        struct ReadFailed: Error {}
        for failAt in [3, 40, 200, 900] {
            var outcomes: [String] = []
            for pipelined in [false, true] {
                let scratch = Scratch()
                let dir = scratch.log
                var options = EventLog.Options()
                options.clock = { 1_767_225_600_000 }   // the records' times fixed: the two runs' bytes compare
                let log = try EventLog(directory: dir, options: options)
                var importer = EventImporter(log: log)
                importer.batchSize = 5
                importer.readSize = 7
                importer.appendsWhileReading = pipelined
                var summary = EventImporter.Summary()
                var kept = RejectedLineCollector()
                var offset = 0, reads = 0
                var stopped: String?
                do {
                    try importer.importLines(file: "in.jsonl", read: { buffer in
                        reads += 1
                        if reads == failAt { throw ReadFailed() }
                        let n = min(buffer.count, Self.input.count - offset)
                        Self.input.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
                        offset += n
                        return n
                    }, rejected: &kept, into: &summary)
                } catch let e as ImportInterrupted {
                    stopped = "line \(e.line): \(e.underlying)"
                }
                outcomes.append("\(summary) \(stopped ?? "none") \(log.head) \(kept.rejections.count)")
            }
            #expect(outcomes[0] == outcomes[1], "read failing at read \(failAt)")
            #expect(!outcomes[0].contains("none"))
        }
    }

    @Test func bothPathsWriteTheBytesTheSingleThreadImporterWroteBefore() throws {
        for pipelined in [false, true] {
            let outcome = try Self.run(pipelined: pipelined, batchSize: 64)
            #expect(outcome.head.position == 269, "pipelined: \(pipelined)")
            #expect(outcome.head.hash.description == "e178c557f9c6783a17af457fc1e13d57a64719f29630b69dfdcdc06abeee299a", "pipelined: \(pipelined)")
        }
    }

    /// A batch also ends once its payloads hold `batchBytes`: large events never make a batch of
    /// `batchSize` records hold gigabytes (both paths cut at the same lines).
    @Test func aBatchAlsoEndsAtItsByteBound() throws {
        let sequential = try Self.run(pipelined: false, batchSize: 1000, batchBytes: 4000)
        let steps = zip(sequential.progress, [0] + sequential.progress).map { $0 - $1 }
        #expect(steps.count > 10 && steps.dropLast().allSatisfy { $0 >= 2 && $0 <= 30 }, "\(steps)")
        #expect(try Self.run(pipelined: true, batchSize: 1000, batchBytes: 4000) == sequential)
    }

    @Test func eventsOfOtherPartitionsAreCountedAsWhenAppendingEachBatchInTurn() throws {
        let partition = StreamPartition(index: 1, of: 3)!
        for batchSize in [1, 4, 1000] {
            let sequential = try Self.run(pipelined: false, batchSize: batchSize, partition: partition)
            #expect(sequential.summary.otherPartitions > 0)
            #expect(try Self.run(pipelined: true, batchSize: batchSize, partition: partition) == sequential, "batch size \(batchSize)")
        }
    }

    /// The disk fills at the first, second, … batch: the error names the same first line not in,
    /// the summary counts the same, the same rejected lines were kept, the log holds the same
    /// bytes (partition counts included: lines read past the failing batch count for nothing).
    @Test func aFailedBatchStopsTheImportAtTheSameLineWithTheSameSummaryAndLog() throws {
        let partition = StreamPartition(index: 0, of: 2)!
        for failAfter in [0, 1, 2, 3, 7, 20] {
            for p in [nil, partition] {
                let sequential = try Self.run(pipelined: false, batchSize: 5, partition: p, failAfterBatches: failAfter)
                #expect(sequential.errorLine != nil)
                let pipelined = try Self.run(pipelined: true, batchSize: 5, partition: p, failAfterBatches: failAfter)
                #expect(pipelined == sequential, "failing after \(failAfter) batches, partition \(p.map { "\($0)" } ?? "none")")
            }
        }
    }
}

/// The log an import appended to on its second thread is closed on the caller's thread: when the
/// import's scope ends, the writer has saved its indexes and let go of the log, so the caller may
/// remove the folder or open a writer at once (a log closed on the appending thread saved its
/// indexes after the import returned, into a folder the caller was removing).
@Suite struct ImportPipelineClosing {
    @Test func aPipelinedImportHasSavedTheLogsIndexesWhenItsScopeEnds() throws {
        let lines = PopulationGenerator(profile: .handz, users: 30, seed: 9).events().map { EventCodec.encode($0) }
        let text = Array(lines.joined(separator: "\n").utf8)
        for round in 0..<20 {
            let s = Scratch()
            do {
                var importer = EventImporter(log: try EventLog(directory: s.log))
                importer.batchSize = 16
                var summary = EventImporter.Summary()
                var rejected = RejectedLineCollector()
                try importer.importLines(text, file: "in.jsonl", rejected: &rejected, into: &summary)
                #expect(summary.appended == lines.count)
            }
            #expect(FileManager.default.fileExists(atPath: s.log + "/indexes/manifest"), "round \(round): the indexes were not saved yet")
            try FileManager.default.removeItem(atPath: s.log)
            #expect(!FileManager.default.fileExists(atPath: s.log), "round \(round): the log's folder came back")
        }
    }
}

