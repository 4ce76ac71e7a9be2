import Foundation
import Testing

/// What the command line refuses at the door (issue 14): empty paths, numbers that do not parse or
/// are out of range.
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
}
