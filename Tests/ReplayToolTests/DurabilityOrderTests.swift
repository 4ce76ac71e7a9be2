import Foundation
import Testing
import TestKit

/// The order of writes and syncs that makes the committed-head checkpoint a proof of what was
/// committed, seen in a system-call trace of the real tool (strace; skipped where it cannot run):
/// a checkpoint slot is written only once the records it names are fdatasync'ed, and is itself
/// fdatasync'ed before any more records are written. No test that reads files back can see this
/// (the page cache holds the bytes either way); only a crash between the calls, or their trace, can.
@Suite struct DurabilityOrder {
    static let strace = "/usr/bin/strace"

    /// Whether strace can trace a child here (installed, and ptrace allowed in this container).
    static let canTrace: Bool = {
        guard FileManager.default.isExecutableFile(atPath: strace) else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: strace)
        p.arguments = ["-f", "-qq", "-o", "/dev/null", "/bin/true"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationReason == .exit && p.terminationStatus == 0
    }()

    /// One traced call: its name and the path of the file descriptor it was given.
    struct Call: CustomStringConvertible {
        var name: String
        var path: String
        var isSegment: Bool { path.hasSuffix(".seg") }
        var isCheckpoint: Bool { path.hasSuffix("/segments/committed-head") }
        var isSegmentFolder: Bool { path.hasSuffix("/segments") }
        var description: String { "\(name)(\((path as NSString).lastPathComponent))" }
    }

    /// Runs the tool under strace and returns its writes and syncs in order.
    static func traced(_ args: [String], in s: Scratch, environment: [String: String] = [:]) throws -> (ToolRun, [Call]) {
        let out = s.path + "/trace-\(UUID().uuidString).txt"
        let r = Tool.run(args, via: [strace, "-f", "-y", "-qq", "-e", "trace=pwrite64,write,fdatasync,fsync", "-o", out], environment: environment)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        // `1234  pwrite64(5</tmp/x/ledger/segments/00000000000000000001.seg>, "...", 732, 32) = 732`
        let calls: [Call] = text.split(separator: "\n").compactMap { line in
            let fields = line.drop { $0.isNumber }.drop { $0 == " " }
            guard let open = fields.firstIndex(of: "("), let lt = fields.firstIndex(of: "<"), lt > open,
                  let gt = fields[lt...].firstIndex(of: ">") else { return nil }
            return Call(name: String(fields[..<open]), path: String(fields[fields.index(after: lt)..<gt]))
        }
        return (r, calls.filter { $0.isSegment || $0.isCheckpoint || $0.isSegmentFolder })
    }

    /// Checks the order around every checkpoint write; returns how many checkpoint writes there were.
    @discardableResult
    static func checkOrder(_ calls: [Call], _ what: String) -> Int {
        var writes = 0
        for (k, call) in calls.enumerated() where call.isCheckpoint && call.name.hasPrefix("pwrite") {
            writes += 1
            let before = calls[..<k]
            // The records it names are durable first: the last segment write (if this process wrote
            // records) is followed by an fdatasync of that segment, before the checkpoint's write.
            let lastRecords = before.lastIndex { $0.isSegment && $0.name.hasPrefix("pwrite") }
            // A new log's first checkpoint (position 0, before any segment exists) names no records.
            let namesNoRecords = !before.contains { $0.isSegment }
            let syncedAfter = namesNoRecords || before[(lastRecords.map { $0 + 1 } ?? before.startIndex)...].contains {
                $0.isSegment && $0.name == "fdatasync" && (lastRecords == nil || $0.path == calls[lastRecords!].path)
            }
            #expect(syncedAfter, "\(what): checkpoint write #\(writes) before its records were fdatasync'ed: \(calls[..<(k + 1)].suffix(6))")
            // The checkpoint itself is durable before any more records are written (or the command ends).
            let after = calls[(k + 1)...]
            let nextRecords = after.firstIndex { $0.isSegment && ($0.name.hasPrefix("pwrite") || $0.name == "write") } ?? calls.endIndex
            #expect(calls[(k + 1)..<nextRecords].contains { $0.isCheckpoint && $0.name == "fdatasync" },
                    "\(what): checkpoint write #\(writes) not fdatasync'ed before the next records: \(calls[k...].prefix(6))")
        }
        return writes
    }

    @Test(.enabled(if: DurabilityOrder.canTrace))
    func eachCheckpointIsWrittenAfterItsRecordsAreSyncedAndIsSyncedItself() throws {
        let s = Scratch()
        let population = s.path + "/population.jsonl"
        #expect(Tool.run(["generate", "--users", "300", "--seed", "3", "--out", population]).status == 0)
        // A new log, several batches of 300 lines, appended on the importer's second thread while
        // it reads the next (strace -f follows both threads).
        let (first, calls) = try Self.traced(["import", "--log", s.log, population], in: s, environment: ["REPLAY_TOOL_IMPORT_BATCH": "300"])
        #expect(first.status == 0, "\(first.err)")
        #expect(Self.checkOrder(calls, "new log") >= 4, "\(calls)")
        // An existing log: the writer takes up the checkpoint it finds.
        let (second, more) = try Self.traced(["import", "--log", s.log, "events/handz.jsonl"], in: s)
        #expect(second.status == 0, "\(second.err)")
        #expect(Self.checkOrder(more, "existing log") >= 1, "\(more)")
    }

    /// The checkpoint file's name is made durable with its first bytes: after its first
    /// fdatasync the segments folder is fsynced (else a power loss could leave a log with records
    /// and no checkpoint, which reads as one written before checkpoints existed).
    @Test(.enabled(if: DurabilityOrder.canTrace))
    func aNewCheckpointFilesFolderEntryIsSyncedAfterItsFirstWrite() throws {
        let s = Scratch()
        let (r, calls) = try Self.traced(["import", "--log", s.log, "events/handz.jsonl"], in: s)
        #expect(r.status == 0, "\(r.err)")
        let firstSync = try #require(calls.firstIndex { $0.isCheckpoint && $0.name == "fdatasync" }, "\(calls)")
        #expect(calls[firstSync...].contains { $0.isSegmentFolder && $0.name == "fsync" }, "\(calls)")
    }

    /// A log whose checkpoint is behind its committed records (a crash between a batch's fsync and
    /// the checkpoint's write): the first writer makes the records durable, then writes the
    /// checkpoint, even if it appends nothing.
    @Test(.enabled(if: DurabilityOrder.canTrace))
    func aWriterBringingTheCheckpointUpToTheHeadSyncsTheRecordsFirst() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        let behind = try Data(contentsOf: URL(fileURLWithPath: s.log + "/segments/committed-head"))
        #expect(Tool.run(["import", "--log", s.log, Queries.moreHandz(s)]).status == 0)
        try behind.write(to: URL(fileURLWithPath: s.log + "/segments/committed-head"))
        // Every line is already in the log: nothing is appended, the open alone writes the checkpoint.
        let (r, calls) = try Self.traced(["import", "--log", s.log, "events/handz.jsonl"], in: s)
        #expect(r.status == 0 && r.out.hasPrefix("appended 0,"), "\(r.out) \(r.err)")
        #expect(!calls.contains { $0.isSegment && $0.name.hasPrefix("pwrite") })
        #expect(Self.checkOrder(calls, "checkpoint brought up") == 1, "\(calls)")
        #expect(FileManager.default.fileExists(atPath: s.log + "/segments/committed-head"))
    }
}
