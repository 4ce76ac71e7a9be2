import Foundation
import Testing
import TestKit

/// What the command line refuses at the door: empty paths, numbers that do not parse or
/// are out of range; and what import promises under hostile input and faults: rejected lines held
/// once at most, reasons always one line, a summary of what was committed when the disk fills.
@Suite struct DoorChecks {
    /// The files a log would make in its folder, here for `--log ""` (the filesystem's root).
    static let rootArtifacts = ["/segments", "/writer.lock", "/projections", "/rejected"]

    @Test func anEmptyPathValueIsAUsageErrorAndNothingIsWritten() throws {
        let s = Scratch()
        let before = Self.rootArtifacts.filter { FileManager.default.fileExists(atPath: $0) }
        let missing = s.path + "/missing.jsonl"
        for args in [["import", "--log", "", missing], ["import", "--log=", missing], ["state", "--log", "", "--user", "u"],
                     ["counts", "--log="], ["verify", "--log", ""], ["export", "--log", ""],
                     ["generate", "--users", "1", "--out", ""], ["demo", "--events", ""], ["state", "--log", s.log, "--user", "u", "--profile", ""],
                     ["import", "--log", s.log, ""]] {
            let r = Tool.run(args)
            #expect(r.status == 2, "\(args): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1 && r.out.isEmpty, "\(args): \(r.err)")
        }
        #expect(Self.rootArtifacts.filter { FileManager.default.fileExists(atPath: $0) } == before)
        #expect(!FileManager.default.fileExists(atPath: s.log))
        #expect(Tool.run(["state", "--log", s.log, "--user", ""]).err == "replay-tool state: option --user needs a value (U), not an empty string\n")
    }

    @Test func aFixedClockThatIsNotAnInstantInRangeIsAUsageErrorNotTheSystemClock() {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        for bad in ["garbage", "2263-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "2200-01-01T00:00:00Z", "1969-01-01T00:00:00Z", ""] {
            let r = Tool.run(["counts", "--log", s.log], now: bad)
            #expect(r.status == 2 && r.err.hasPrefix("replay-tool counts: REPLAY_TOOL_NOW '\(bad)' is ") && r.out.isEmpty, "\(bad): \(r.err)")
        }
        // An import under a bad clock writes nothing (no record with a 1969 recorded time).
        let before = Tool.run(["verify", "--log", s.log]).out
        #expect(Tool.run(["import", "--log", s.log, "events/tomo.jsonl"], now: "1969-01-01T00:00:00Z").status == 2)
        #expect(Tool.run(["verify", "--log", s.log]).out == before)
        #expect(Tool.run(["counts", "--log", s.log], now: "2199-12-31T23:59:59Z").status == 0)
    }

    @Test func aUserTheLogCouldNeverHoldIsAUsageErrorNotAGuest() {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        for (user, why) in [("a\u{1}b", "holds the control character U+0001"), (String(repeating: "x", count: 65_536), "is 65536 bytes, over the log's limit")] {
            for command in ["state", "history"] {
                let r = Tool.run([command, "--log", s.log, "--user", user])
                #expect(r.status == 2 && r.out.isEmpty && r.err.hasPrefix("replay-tool \(command): --user \(why)"), "\(command): \(r.err.prefix(200))")
            }
        }
        #expect(Tool.run(["state", "--log", s.log, "--user", String(repeating: "x", count: 65_535)]).status == 0)
    }

    @Test func aReportThatCannotBeWrittenWhereAskedSaysWhyOnOneLine() {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        let folder = Tool.run(["report", "--log", s.log, "--out", s.path])
        #expect(folder.status == 1 && folder.err == "replay-tool report: \(s.path): is a folder; an output is written to a regular file only (or - for standard output)\n", "\(folder.err)")
        let missing = Tool.run(["report", "--log", s.log, "--out", s.path + "/nowhere/r.html"])
        #expect(missing.status == 1 && missing.err == "replay-tool report: \(s.path)/nowhere/r.html: the folder \(s.path)/nowhere does not exist\n")
        #expect(!FileManager.default.fileExists(atPath: s.path + "/nowhere"))
        #expect(Tool.run(["report", "--log", s.log, "--out", s.path + "/r.html"]).status == 0)
    }

    @Test func aNumberThatDoesNotParseOrIsOutOfRangeIsAUsageError() {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        for bad in ["abc", "0", "-1", "99999999999999999999999", "18446744073709551616", "1.5", "1e3", " 1", "+1", "0x10", "٣"] {
            let r = Tool.run(["export", "--log", s.log, "--from-position", bad])
            #expect(r.status == 2 && r.out.isEmpty, "\(bad): \(r.status) \(r.err)")
            #expect(r.err == "replay-tool export: --from-position '\(bad)' is not a whole number from 1 to 18446744073709551615\n")
        }
        for bad in ["abc", "0", "-3", "99999999999999999999999", "9223372036854775808", "1.5", "+2"] {
            let r = Tool.run(["generate", "--users", bad])
            #expect(r.status == 2 && r.out.isEmpty && r.err.split(separator: "\n").count == 1, "\(bad): \(r.err)")
            #expect(r.err.contains("--users '\(bad)' is not a whole number from 1 to"), "\(bad): \(r.err)")
        }
        for bad in ["-1", "99999999999999999999999", "18446744073709551616", "x", "+5"] {
            let r = Tool.run(["generate", "--users", "1", "--seed", bad])
            #expect(r.status == 2 && r.out.isEmpty, "\(bad): \(r.err)")
            #expect(r.err == "replay-tool generate: --seed '\(bad)' is not a whole number from 0 to 18446744073709551615\n", "\(bad)")
        }
        // In range, at the edges.
        #expect(Tool.run(["export", "--log", s.log, "--from-position", "43"]).out.split(separator: "\n").count == 1)
        let past = Tool.run(["export", "--log", s.log, "--from-position", "18446744073709551615"])
        #expect(past.status == 0 && past.out.isEmpty && past.err.isEmpty)
        #expect(Tool.run(["generate", "--users", "1", "--seed", "18446744073709551615"]).status == 0)
        #expect(Tool.run(["generate", "--users", "1", "--seed", "0"]).status == 0)
    }

    /// Control characters a JSON string may carry once decoded, inside an unknown `type`.
    @Test func everyReasonIsOneLineWhateverControlCharactersTheInputHolds() throws {
        let s = Scratch()
        let folder = s.path + "/in\nput"   // a file name with a newline, too
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/bad.jsonl"
        let lines = [
            #"{"id":"c1","type":"purch\nase","user":"u","time":"2026-01-01T00:00:00Z"}"#,
            #"{"id":"c2","type":"a\u0000b","user":"u","time":"2026-01-01T00:00:00Z"}"#,
            #"{"id":"c3","type":"tab\there\rcr","user":"u","time":"2026-01-01T00:00:00Z"}"#,
            #"{"id":"c4","type":"esc\u001b[31mred\u007f\u0085\u2028end\\n","user":"u","time":"2026-01-01T00:00:00Z"}"#,
            #"{"id":"ok","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let r = Tool.run(["import", "--log", s.log, file])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("appended 1, duplicates 0, rejected 4\n"))
        let shown = s.path + "/in\\nput/bad.jsonl"
        let expected = [
            "\(shown):1: unknown event type 'purch\\nase'",
            "\(shown):2: unknown event type 'a\\u0000b'",
            "\(shown):3: unknown event type 'tab\\there\\rcr'",
            "\(shown):4: unknown event type 'esc\\u001b[31mred\\u007f\\u0085\\u2028end\\\\n'",
        ]
        #expect(r.err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == expected + [""])
        let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: s.log + "/rejected").first { $0.hasSuffix(".jsonl") })
        let reasons = try String(contentsOfFile: s.log + "/rejected/" + kept.dropLast(6) + ".reasons", encoding: .utf8)
        #expect(reasons == expected.joined(separator: "\n") + "\n")
        #expect(try String(contentsOfFile: s.log + "/rejected/" + kept, encoding: .utf8) == lines[0..<4].joined(separator: "\n") + "\n")
        // Errors of the tool itself embed what was typed: one line too.
        let odd = Tool.run(["state", "--log", s.path + "/no\nlog", "--user", "u"])
        #expect(odd.status == 1 && odd.err == "replay-tool state: \(s.path)/no\\nlog: no log here (import something first, or pass --log DIR)\n")
    }

    /// Lines of 4 MiB (over the import line limit of 2 MiB, twice the 1 MiB record limit): one not
    /// JSON, one valid JSON, one not UTF-8. Peak memory grows by much less than the rejected bytes
    /// (the first version copied them about four times); each is kept verbatim and named.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func rejectedLinesAreNotHeldInMemoryAndAnOverlongValidLineIsRejectedCleanly() throws {
        let s = Scratch()
        let big = 4 << 20
        let good = #"{"id":"ok","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z"}"#
        let prefix = #"{"id":"big","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z","data":{"note":""#
        let valid = Array(prefix.utf8) + [UInt8](repeating: 0x61, count: big - prefix.utf8.count - 3) + Array("\"}}".utf8)
        let rejected: [[UInt8]] = [[UInt8](repeating: 0x78, count: big), valid, [UInt8](repeating: 0xFF, count: big)]
        var file: [UInt8] = []
        for line in rejected { file += Array(good.utf8) + [0x0A] + line + [0x0A] }
        #expect(FileManager.default.createFile(atPath: s.path + "/big.jsonl", contents: Data(file)))
        #expect(FileManager.default.createFile(atPath: s.path + "/small.jsonl", contents: Data((good + "\nnot json\n").utf8)))

        func peakKiB(_ input: String, log: String) throws -> (ToolRun, Int) {
            let measure = s.path + "/time.txt"
            let r = Tool.run(["import", "--log", log, input], via: ["/usr/bin/time", "-f", "%M", "-o", measure])
            let kib = try #require(Int(try String(contentsOfFile: measure, encoding: .utf8).split(separator: "\n").last ?? ""))
            return (r, kib)
        }
        let (small, base) = try peakKiB(s.path + "/small.jsonl", log: s.path + "/base")
        #expect(small.status == 1)
        let (r, peak) = try peakKiB(s.path + "/big.jsonl", log: s.log)
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("appended 1, duplicates 2, rejected 3\n"))
        let limit = "over the import limit of 2097152 bytes a line (the log's records hold at most 1048576)"
        #expect(r.err == (0..<3).map { "\(s.path)/big.jsonl:\(2 * $0 + 2): line is \(big) bytes, \(limit)\n" }.joined())
        // Held once would be 12 MiB; streamed, a few MiB of buffer.
        #expect(peak - base < 3 * big / 1024, "peak \(peak) KiB, base \(base) KiB")
        let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: s.log + "/rejected").first { $0.hasSuffix(".jsonl") })
        #expect([UInt8](FileManager.default.contents(atPath: s.log + "/rejected/" + kept)!) == rejected.flatMap { $0 + [0x0A] })
    }

    /// A real full disk (a 512 KiB tmpfs; needs root to mount): the batches that went in are
    /// summarised, then the one-line error, exit 1; the log holds exactly what the summary says.
    @Test(.enabled(if: SmallDisk.canMount))
    func aFullDiskMidImportPrintsWhatWasCommittedThenTheError() throws {
        let s = Scratch()
        let input = s.path + "/population.jsonl"
        #expect(Tool.run(["generate", "--users", "600", "--seed", "2", "--out", input]).status == 0)
        let total = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").count
        let disk = try SmallDisk(at: s.path + "/disk", kib: 512)
        let log = disk.path + "/ledger"
        // Batches of 1,000 (a file import's are 10,000: the whole file would be one batch).
        let r = Tool.run(["import", "--log", log, input], environment: ["REPLAY_TOOL_IMPORT_BATCH": "1000"])
        #expect(r.status == 1)
        let counts = r.out.split(separator: "\n").first.map { $0.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) } }
        let (appended, duplicates) = (try #require(counts?.first), try #require(counts?.dropFirst().first))
        #expect(appended > 0 && appended + duplicates < total, "\(r.out)")
        #expect(r.out == "appended \(appended), duplicates \(duplicates), rejected 0\n")
        // Generated populations hold redelivered events: every line before the failed batch is in the summary.
        #expect(r.err.hasPrefix("replay-tool import: \(input):\(appended + duplicates + 1): import stopped"), "\(r.err)")
        #expect(r.err.contains("No space left on device") && r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(Tool.run(["export", "--log", log]).out.split(separator: "\n").count == appended)
        let json = Tool.run(["import", "--log", log, input, "--format", "json"], environment: ["REPLAY_TOOL_IMPORT_BATCH": "1000"])
        #expect(json.status == 1)
        let summary = try #require(Tool.json(json.out) as? [String: Any])
        #expect(summary["appended"] as? Int == 0 && summary["duplicates"] as? Int == appended + duplicates && summary["rejected"] as? Int == 0)
    }
}

/// A tmpfs of a few hundred KiB mounted for one test, unmounted when the value goes away.
final class SmallDisk {
    let path: String

    init(at path: String, kib: Int) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.system(["/bin/mount", "-t", "tmpfs", "-o", "size=\(kib)k", "tmpfs", path]) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
        self.path = path
    }

    deinit { _ = Self.system(["/bin/umount", path]) }

    /// Whether this process may mount a tmpfs (root, and a kernel and container that allow it).
    static let canMount: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
        let probe = NSTemporaryDirectory() + "small-disk-probe-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: probe) }
        return (try? SmallDisk(at: probe, kib: 64)) != nil
    }()

    @discardableResult
    static func system(_ args: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: args[0])
        p.arguments = Array(args.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }
}
