import Foundation
import Testing
import TestKit

/// The rules fingerprint a question computes is kept in the log's `projections` folder for later
/// runs of the same build (`rules-<build ID>-<profile digest>.fingerprint`, one checked line), and
/// a later run answers the same with it. The folder is not made for it: the first question on a
/// fresh log (which makes the folder for its derived files) keeps nothing, the next one does.
@Suite struct KeptRulesFingerprintsEndToEnd {
    @Test func aQuestionKeepsTheRulesFingerprintOfThisBuildAndALaterRunAnswersTheSame() throws {
        let s = Scratch()
        let file = s.path + "/all.jsonl", log = s.path + "/log"
        #expect(Tool.run(["generate", "--users", "40", "--seed", "3", "--out", file]).status == 0)
        // (Without the event cache an import writes: the first question then builds the kept projection, which keeps the fingerprint.)
        #expect(Tool.run(["import", "--log", log, file], environment: ["REPLAY_TOOL_IMPORT_EVENT_CACHE": "off"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: log + "/projections"))
        let args = ["counts", "--log", log, "--at", "2026-05-01T00:00:00Z", "--format", "json"]
        let first = Tool.run(args, environment: ["REPLAY_TOOL_TIME_INDEX": "off"])
        #expect(first.status == 0, "\(first.err)")
        #expect(FileManager.default.fileExists(atPath: log + "/projections"))
        let second = Tool.run(args, environment: ["REPLAY_TOOL_TIME_INDEX": "off"])
        #expect(second.status == 0 && second.out == first.out, "\(second.err)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: log + "/projections")
            .filter { $0.hasPrefix("rules-") && $0.hasSuffix(".fingerprint") }
        #expect(kept.count == 1, "\(kept)")
        let name = try #require(kept.first)
        let line = try String(contentsOfFile: log + "/projections/" + name, encoding: .utf8)
        let parts = line.dropLast().split(separator: " ")
        #expect(line.hasSuffix("\n") && parts.count == 3 && parts[0] == "LDGRFP1" && parts[1].count == 16 && parts[2].count == 8, "\(line)")
        // A later run of the same build reads it (the file stays as it was) and answers the same.
        let again = Tool.run(args, environment: ["REPLAY_TOOL_TIME_INDEX": "off"])
        #expect(again.status == 0 && again.out == first.out, "\(again.err)")
        #expect(try String(contentsOfFile: log + "/projections/" + name, encoding: .utf8) == line)
    }
}
