import Foundation
import Testing
import TestKit

extension ConcurrentProcesses {
    /// Two processes ask reports at past instants, in windows and as series (each run bringing the
    /// time index up to the head it finds: an overlay written, or merged into the base) while a
    /// third appends in batches: every query succeeds, and afterwards the index kept answers what
    /// a full fold answers, byte for byte.
    @Test func timeIndexesStayCorrectWhileAnotherProcessAppends() throws {
        let s = Scratch()
        let base = s.path + "/base.jsonl"
        try Tool.run(["generate", "--users", "1500", "--seed", "9"]).out.write(toFile: base, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, base]).status == 0)
        let questions = [["counts", "--at", "2026-05-20T00:00:00Z"], ["funnel", "--at", "2026-05-15T00:00:00Z"],
                         ["revenue", "--at", "2026-05-25T12:00:00Z"], ["counts", "--from", "2026-05-01T00:00:00Z", "--to", "2026-05-20T00:00:00Z"],
                         ["counts", "--by", "week", "--at", "2026-05-31T00:00:00Z"]]
        var appends: [String] = []
        for round in 0..<4 {
            let events = s.path + "/new-\(round).jsonl"
            try Self.newEvents(300 * (round + 1), round: round, to: events)
            appends.append("replay-tool import --log \(s.log) \(events) || exit 1")
        }
        var processes = [try Self.start(appends.joined(separator: "; "))]
        for reader in 0..<2 {
            var steps: [String] = []
            for i in 0..<6 {
                let q = questions[(i + reader * 2) % questions.count].joined(separator: " ")
                steps.append("replay-tool \(q) --log \(s.log) --format json > /dev/null || exit 1")
            }
            processes.append(try Self.start(steps.joined(separator: "; ")))
        }
        for p in processes {
            p.waitUntilExit()
            #expect(p.terminationReason == .exit && p.terminationStatus == 0, "a process failed")
        }
        for q in questions {
            let args = q + ["--log", s.log, "--format", "json"]
            let kept = Tool.run(args, now: Self.now)
            let full = Tool.run(args, now: Self.now, via: ["/usr/bin/env", "REPLAY_TOOL_TIME_INDEX=off"])
            #expect(kept.status == 0 && kept.out == full.out, "\(q.joined(separator: " ")): the kept time index differs from a full fold")
        }
    }
}
