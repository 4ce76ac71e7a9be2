import Foundation
import Testing
import TestKit

/// Limits the operating system puts on a process end an import with a message, never a signal.
@Suite struct ResourceLimits {
    /// `ulimit -f` (bash counts 1,024-byte blocks: 12 KiB holds the sample, not the sample and a
    /// generated population of the same app) makes a write past it fail with EFBIG once
    /// SIGXFSZ is ignored; without that, the kernel kills the process with no word (exit 153).
    @Test func aFileSizeLimitEndsImportWithAMessageAndKeepsTheLogWhole() throws {
        let s = Scratch()
        let more = s.path + "/more-handz.jsonl"
        #expect(Tool.run(["generate", "--users", "20", "--seed", "5", "--profile", "handz", "--out", more]).status == 0)
        let (reason, status, message) = try Tool.runUnderFileSizeLimit(kib: 12,
            "for file in events/handz.jsonl \"$2\"; do \"$0\" import --log \"$1\" \"$file\" || exit; done", [Tool.binary, s.log, more])
        #expect(reason == .exit && status == 1, "status \(status): \(message)")
        #expect(message.contains("File too large"))
        // What was committed before the limit is whole: verify passes and the next import goes on.
        let verify = Tool.json(Tool.run(["verify", "--log", s.log, "--format", "json"]).out) as? [String: Any]
        #expect(verify?["intact"] as? Bool == true && verify?["records"] as? Int == 43)
        #expect(Tool.run(["import", "--log", s.log, more]).status == 0)
    }
}

/// What `--log` and `--profile` name is checked before anything is written.
@Suite struct NamedPaths {
    @Test func aFileGivenAsTheLogFolderIsRefusedAndLeftAlone() throws {
        let s = Scratch()
        let file = s.path + "/notes.txt"
        try "mine".write(toFile: file, atomically: true, encoding: .utf8)
        let r = Tool.run(["import", "--log", file, "events/handz.jsonl"])
        #expect(r.status == 2 && r.err.contains("not a log folder: it is a file"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine")
    }

    @Test func aMissingProfileFileIsAnInputErrorNamingThePath() {
        let s = Queries.handzLog()
        let r = Tool.run(["counts", "--log", s.log, "--profile", s.path + "/nope.json"])
        #expect(r.status == 1 && r.err.contains("nope.json: no such profile file"))
        #expect(Tool.run(["counts", "--log", s.log, "--profile", "nope"]).status == 2)
    }
}
