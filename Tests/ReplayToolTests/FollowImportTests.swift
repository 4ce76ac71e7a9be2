import Foundation
import Testing
import TestKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `replay-tool import --follow -` (CONTRACT.md §5.1) as a real child process fed through a pipe
/// by a producer that waits for each acknowledgment before it writes more or closes, while the
/// acknowledgments are read from its stdout as they come and other processes read the log. Every
/// wait is for an event (an acknowledgment line, the pipe drained, the process's exit), never for
/// a length of time: a follower that committed only at EOF or every 1,000 lines never acknowledges
/// a group the producer waits on, and the suite's time limit ends that hang as a failure.
@Suite struct FollowImport {
    static func line(_ id: String, user: String = "u") -> String {
        #"{"id":"\#(id)","type":"account_created","user":"\#(user)","time":"2026-01-05T09:00:00Z"}"#
    }

    static func exportedIDs(_ log: String) -> [String] {
        Tool.run(["export", "--log", log]).out.split(separator: "\n").map { ($0.json["id"] as? String) ?? "?" }
    }

    /// A follower whose first line ("warm", line 1) is acknowledged: the process is up and the
    /// log open, so that what follows is timed from the write alone.
    static func warmFollower(_ s: Scratch) throws -> Follower {
        let f = try Follower(log: s.log, scratch: s)
        f.send(line("warm") + "\n")
        let warm = try #require(f.nextAck(), "no acknowledgment of the first line: \(f.errors)")
        #expect(warm == Ack(first: 1, last: 1, appended: 1, lines: 1...1))
        return f
    }

    /// A producer that writes a line, waits, writes three lines, waits, closes: each group is
    /// acknowledged while the producer waits with its input open, and is in `export`'s answer
    /// (another process) before the producer closes.
    @Test(.timeLimit(.minutes(3))) func eachGroupIsAcknowledgedAndVisibleWhileTheProducerWaitsWithItsInputOpen() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        let one = f.sendAndAcknowledge(["one"], firstLine: 2)
        #expect(one.map(\.appended).reduce(0, +) == 1 && one.first?.first == 2)
        #expect(Self.exportedIDs(s.log) == ["warm", "one"])
        let three = f.sendAndAcknowledge(["two", "three", "four"], firstLine: 3)
        #expect(three.map(\.appended).reduce(0, +) == 3 && three.last?.last == 5)
        #expect(Self.exportedIDs(s.log) == ["warm", "one", "two", "three", "four"])
        f.closeInput()
        let end = f.wait()
        #expect(end.status == 0 && !end.signaled)
        #expect(f.restOfAcks().isEmpty, "nothing was held at EOF")
        #expect(f.errors.isEmpty)
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
    }

    /// A producer that writes half a line, waits until the follower has read it, then writes the
    /// rest: no group holds the half; the line goes in once, whole, in one group, and no other
    /// acknowledgment comes before the end of the stream.
    @Test(.timeLimit(.minutes(3))) func aHalfLineWaitsForItsEndAndGoesInWhole() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        let full = Self.line("halves", user: "someone")
        let cut = full.index(full.startIndex, offsetBy: full.count / 2)
        f.send(String(full[..<cut]))
        f.waitUntilRead()
        let acks = f.sendAndAcknowledge(["halves"], firstLine: 2, text: { _ in String(full[cut...]) + "\n" })
        #expect(acks == [Ack(first: 2, last: 2, appended: 1, lines: 2...2)], "half a line was acknowledged")
        f.closeInput()
        #expect(f.wait().status == 0)
        #expect(f.restOfAcks().isEmpty)
        let exported = Tool.run(["export", "--log", s.log]).out.split(separator: "\n")
        #expect(exported.count == 2)
        #expect(exported.last.map { $0.json["user"] as? String } == "someone")
    }

    /// SIGTERM while idle, after acknowledged lines and with part of a line read: exit 0, every
    /// acknowledged line in the log, the incomplete line left out (and said so), no acknowledgment.
    @Test(.timeLimit(.minutes(3))) func sigtermCommitsWhatIsHeldLeavesOutAnIncompleteLineAndExitsZero() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        _ = f.sendAndAcknowledge(["a", "b"], firstLine: 2)
        f.send(#"{"id":"c","type":"acc"#)
        f.waitUntilRead()  // the follower holds the part line and waits in poll, idle
        f.deliver(SIGTERM)
        let end = f.wait()
        #expect(end.status == 0 && !end.signaled)
        #expect(f.restOfAcks().isEmpty)
        #expect(f.errors.contains("stopped by SIGTERM") && f.errors.contains("the incomplete line 4 (21 bytes so far) was left out, unacknowledged"))
        #expect(Self.exportedIDs(s.log) == ["warm", "a", "b"])
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
    }

    /// SIGINT in the middle of a burst: whatever was read is committed and acknowledged before the
    /// exit, and the log holds exactly the acknowledged lines (those still in the pipe are neither).
    @Test(.timeLimit(.minutes(3))) func sigintInABurstLeavesExactlyTheAcknowledgedLinesInTheLog() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        let ids = (1...3000).map { "burst-\($0)" }
        f.send(ids.map { Self.line($0) + "\n" }.joined())
        f.deliver(SIGINT)
        let end = f.wait()
        #expect(end.status == 0 && !end.signaled)
        let acks = f.restOfAcks()
        var covered = 1
        for ack in acks {
            #expect(ack.lines.lowerBound == covered + 1, "acknowledgments cover the lines in order, without a gap")
            covered = ack.lines.upperBound
        }
        #expect(acks.map(\.appended).reduce(0, +) == covered - 1)
        #expect(Self.exportedIDs(s.log) == ["warm"] + ids.prefix(covered - 1))
        #expect(f.errors.contains("stopped by SIGINT"))
    }

    /// kill -9 after an acknowledgment: the acknowledged records are in the log, which verifies
    /// intact; a new follower (the writer lock went with the process) takes the redelivered lines
    /// as duplicates.
    @Test(.timeLimit(.minutes(3))) func killNineAfterAnAcknowledgmentKeepsTheAcknowledgedRecords() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        _ = f.sendAndAcknowledge(["a", "b", "c"], firstLine: 2)
        f.deliver(SIGKILL)
        let end = f.wait()
        #expect(end.signaled && end.status == SIGKILL)
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
        #expect(Self.exportedIDs(s.log) == ["warm", "a", "b", "c"])

        let again = try Follower(log: s.log, scratch: s)
        defer { again.kill() }
        again.send(Self.line("c") + "\n" + Self.line("d") + "\n")
        var acks: [Ack] = []
        while acks.last?.lines.upperBound ?? 0 < 2, let ack = again.nextAck() { acks.append(ack) }
        #expect(acks.map(\.duplicates).reduce(0, +) == 1 && acks.map(\.appended).reduce(0, +) == 1 && acks.last?.last == 5)
        again.closeInput()
        #expect(again.wait().status == 0)
        #expect(Self.exportedIDs(s.log) == ["warm", "a", "b", "c", "d"])
    }

    /// Rejected lines in the stream: counted in their group's acknowledgment, on stderr as
    /// `<stdin>:LINE: reason` with lines counted across the stream, kept verbatim in DIR/rejected/
    /// (on disk by the time of the acknowledgment), and the exit status at EOF is 1.
    @Test(.timeLimit(.minutes(3))) func rejectedLinesAreCountedKeptAndMakeTheExitStatusOne() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        let acks = f.sendAndAcknowledge(["g1", "bad", "g2"], firstLine: 2, text: { $0 == "bad" ? "not json\n" : Self.line($0) + "\n" })
        #expect(acks.map(\.rejected).reduce(0, +) == 1 && acks.map(\.appended).reduce(0, +) == 2)
        let folder = s.log + "/rejected"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let kept = try #require(names.first { $0.hasSuffix(".jsonl") })
        let reasons = try #require(names.first { $0.hasSuffix(".reasons") })
        #expect(try String(contentsOfFile: folder + "/" + kept, encoding: .utf8) == "not json\n")
        #expect(try String(contentsOfFile: folder + "/" + reasons, encoding: .utf8).hasPrefix("<stdin>:3: expected '{'"))
        f.closeInput()
        let end = f.wait()
        #expect(end.status == 1 && !end.signaled)
        #expect(f.errors.hasPrefix("<stdin>:3: expected '{'"))
        #expect(Self.exportedIDs(s.log) == ["warm", "g1", "g2"])
    }

    /// The same id sent twice in two groups (an at-least-once redelivery): the second group
    /// appends nothing and says so. Between the groups another importer appends (the follower does
    /// not hold the writer lock while idle), and the follower's next group comes after its records.
    @Test(.timeLimit(.minutes(3))) func aRedeliveredLineIsADuplicateAndOtherImportersAppendBetweenGroups() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        #expect(f.sendAndAcknowledge(["x"], firstLine: 2) == [Ack(first: 2, last: 2, appended: 1, lines: 2...2)])
        #expect(f.sendAndAcknowledge(["x"], firstLine: 3) == [Ack(first: nil, last: nil, appended: 0, duplicates: 1, lines: 3...3)])
        let other = Tool.run(["import", "--log", s.log, "-"], stdin: Self.line("other-1") + "\n" + Self.line("other-2") + "\n")
        #expect(other.status == 0 && other.out.hasPrefix("appended 2"))
        #expect(f.sendAndAcknowledge(["y"], firstLine: 4) == [Ack(first: 5, last: 5, appended: 1, lines: 4...4)])
        f.closeInput()
        #expect(f.wait().status == 0)
        #expect(Self.exportedIDs(s.log) == ["warm", "x", "other-1", "other-2", "y"])
    }

    /// A burst bigger than a batch: groups of at most 1,000 records, covering every line once.
    @Test(.timeLimit(.minutes(3))) func aBurstIsCommittedInGroupsOfAtMostOneThousand() throws {
        let s = Scratch()
        let f = try Self.warmFollower(s)
        defer { f.kill() }
        f.send((1...2500).map { Self.line("b\($0)") + "\n" }.joined())
        var acks: [Ack] = []
        while acks.last?.lines.upperBound ?? 0 < 2501, let ack = f.nextAck() { acks.append(ack) }
        #expect(acks.allSatisfy { $0.appended <= 1000 && $0.appended == $0.lines.count })
        #expect(acks.map(\.appended).reduce(0, +) == 2500)
        #expect(zip(acks, acks.dropFirst()).allSatisfy { $0.lines.upperBound + 1 == $1.lines.lowerBound && $0.last! + 1 == $1.first! })
        f.closeInput()
        #expect(f.wait().status == 0)
    }

    @Test func followTakesStandardInputOnlyAndAcknowledgesInJSON() {
        let s = Scratch()
        let file = s.path + "/in.jsonl"
        _ = FileManager.default.createFile(atPath: file, contents: Data((Self.line("f") + "\n").utf8))
        for args in [["--follow", file], ["--follow", "-", file], ["--follow", "-", "--format", "table"]] {
            let r = Tool.run(["import", "--log", s.log] + args, stdin: "")
            #expect(r.status == 2, "\(args)")
            #expect(r.err.hasPrefix("replay-tool import: --follow"), "\(args)")
        }
        // `--format json` is what it prints anyway; an empty stdin acknowledges nothing.
        let r = Tool.run(["import", "--log", s.log, "--follow", "-", "--format", "json"], stdin: "")
        #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty)
    }
}

/// One acknowledgment line.
struct Ack: Equatable {
    var first: Int?
    var last: Int?
    var appended = 0
    var duplicates = 0
    var rejected = 0
    var lines: ClosedRange<Int>
    /// Lines skipped (store payloads that carry nothing, events of other partitions); not compared.
    var skipped = 0

    init(first: Int?, last: Int?, appended: Int, duplicates: Int = 0, rejected: Int = 0, lines: ClosedRange<Int>) {
        self.first = first
        self.last = last
        self.appended = appended
        self.duplicates = duplicates
        self.rejected = rejected
        self.lines = lines
    }

    init?(_ text: Substring) {
        let o = text.json
        guard Set(o.keys) == ["first", "last", "appended", "duplicates", "rejected", "skipped", "lines"],
              let appended = o["appended"] as? Int, let duplicates = o["duplicates"] as? Int, let rejected = o["rejected"] as? Int,
              let lines = o["lines"] as? [Int], lines.count == 2, lines[0] <= lines[1] else { return nil }
        self.init(first: o["first"] as? Int, last: o["last"] as? Int, appended: appended, duplicates: duplicates, rejected: rejected,
                  lines: lines[0]...lines[1])
        skipped = o["skipped"] as? Int ?? -1
    }

    static func == (a: Ack, b: Ack) -> Bool {
        (a.first, a.last, a.appended, a.duplicates, a.rejected, a.lines) == (b.first, b.last, b.appended, b.duplicates, b.rejected, b.lines)
    }
}

/// kill(2), out of the way of `Follower.kill()`.
func signalProcess(_ pid: Int32, _ sig: Int32) { _ = kill(pid, sig) }

extension Substring {
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(utf8))) as? [String: Any]) ?? [:] }
}

/// `replay-tool import --follow -` running, fed and read by the test: stdin is a pipe the test
/// writes to, stdout a pipe it reads acknowledgments from as they come, stderr a file.
final class Follower {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errorPath: String
    private var pending: [UInt8] = []
    private var inputOpen = true
    /// Newlines written to its stdin so far: the number of the last whole line sent.
    private(set) var linesSent = 0

    init(log: String, scratch: Scratch, arguments: [String] = []) throws {
        // A write to a follower that died must fail, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        errorPath = scratch.path + "/follower-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: Tool.binary)
        process.arguments = ["import", "--log", log, "--follow", "-"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["REPLAY_TOOL_NOW"] = "2026-02-06T12:00:00Z"
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
    }

    /// Writes `text` to the follower's stdin, all of it (one write for a short text).
    func send(_ text: String) {
        linesSent += text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let fd = input.fileHandleForWriting.fileDescriptor
        Array(text.utf8).withUnsafeBytes { b in
            var done = 0
            while done < b.count {
                let n = write(fd, b.baseAddress! + done, b.count - done)
                if n < 0 { if errno == EINTR { continue }; Issue.record("write to the follower failed: errno \(errno)"); return }
                done += n
            }
        }
    }

    /// Waits until the follower has read everything written to its stdin so far (the pipe holds
    /// no unread byte: Linux's FIONREAD counts them from either end).
    func waitUntilRead() {
        let fd = input.fileHandleForWriting.fileDescriptor
        while process.isRunning {
            var unread: Int32 = 0
            guard ioctl(fd, UInt(FIONREAD), &unread) == 0 else { Issue.record("FIONREAD on the follower's stdin: errno \(errno)"); return }
            if unread == 0 { return }
            sched_yield()
        }
    }

    /// The next acknowledgment line, waiting for it as long as the follower runs; nil when its
    /// stdout ends (it exited).
    func nextAck() -> Ack? {
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let text = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard let ack = Ack(text[...]) else { Issue.record("not an acknowledgment: \(text)"); return nil }
                return ack
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return nil }
            pending += chunk[..<n]
        }
    }

    /// Sends each id's line (`text`, by default the event) as its own write, keeping the input
    /// open, then reads acknowledgments until they cover the last one (recording an issue if the
    /// follower exits first). Returns the acknowledgments.
    func sendAndAcknowledge(_ ids: [String], firstLine: Int, text: (String) -> String = { FollowImport.line($0) + "\n" }) -> [Ack] {
        for id in ids { send(text(id)) }
        let lastLine = firstLine + ids.count - 1
        var acks: [Ack] = []
        while (acks.last?.lines.upperBound ?? firstLine - 1) < lastLine {
            guard let ack = nextAck() else {
                Issue.record("lines \((acks.last?.lines.upperBound ?? firstLine - 1) + 1)...\(lastLine) not acknowledged before the follower exited (stderr: \(errors))")
                break
            }
            acks.append(ack)
        }
        return acks
    }

    func closeInput() {
        guard inputOpen else { return }
        inputOpen = false
        try? input.fileHandleForWriting.close()
    }

    func deliver(_ sig: Int32) { signalProcess(process.processIdentifier, sig) }

    /// Waits for the exit.
    func wait() -> (status: Int32, signaled: Bool) {
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    /// The acknowledgments still unread once the follower has exited.
    func restOfAcks() -> [Ack] {
        var acks: [Ack] = []
        while let ack = nextAck() { acks.append(ack) }
        return acks
    }

    /// What it wrote on stderr so far.
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Ends it if it still runs (a failed test), and closes its stdin.
    func kill() {
        closeInput()
        if process.isRunning {
            deliver(SIGKILL)
            process.waitUntilExit()
        }
    }
}
