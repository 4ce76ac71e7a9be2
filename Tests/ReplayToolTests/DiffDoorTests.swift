import Foundation
import Testing
import TestKit

/// `diff` checks each `--log` folder at the door, as every query does, before it reads the event
/// cache or folds a snapshot: a folder without a log is named (exit 1) and nothing is written there.
@Suite struct DiffAtTheDoor {
    @Test func aFolderWithoutALogIsNamedWithExitOneAloneOrAfterALogWithItsEventCache() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "--profile", "handz", "events/handz.jsonl"]).status == 0)
        #expect(Tool.run(["cache", "--log", s.log]).status == 0)
        let empty = s.path + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        for dir in [empty, s.path + "/nowhere"] {
            for logs in [["--log", dir], ["--log", s.log, "--log", dir]] {
                let r = Tool.run(["diff"] + logs + ["--profile", "handz", "--profile", "handz"])
                #expect(r.status == 1 && r.err == "replay-tool diff: \(dir): no log here (import something first, or pass --log DIR)\n" && r.out.isEmpty,
                        "\(logs): \(r.status) \(r.err)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty, "nothing written where there is no log")
    }
}
