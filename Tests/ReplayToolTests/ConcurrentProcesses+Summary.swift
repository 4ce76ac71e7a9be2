import Foundation
import Testing
import TestKit

extension ConcurrentProcesses {
    /// A past instant whose notification schedule the readers ask for (read from the summary as of now).
    static let pastInstant = "2026-03-15T00:00:00Z"

    /// Two processes query the four reports as of a moving now (each run updating and rewriting the
    /// report summary), and the notification schedule at a past instant (read from it), while a
    /// third appends in batches: every query succeeds, and afterwards the summary both kept
    /// answers what a full fold answers, now and at the past instant.
    @Test func reportSummariesStayCorrectWhileAnotherProcessAppends() throws {
        let s = Scratch()
        let base = s.path + "/base.jsonl"
        try Tool.run(["generate", "--users", "1500", "--seed", "8"]).out.write(toFile: base, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, base]).status == 0)
        var appends: [String] = []
        for round in 0..<4 {
            let events = s.path + "/new-\(round).jsonl"
            try Self.newEvents(1500, round: round, to: events)
            appends.append("replay-tool import --log \(s.log) \(events) || exit 1; sleep 0.1")
        }
        var processes = [try Self.start(appends.joined(separator: "; "))]
        for reader in 0..<2 {
            var steps: [String] = []
            for i in 0..<6 {
                let now = "2026-05-\(10 + reader * 9 + i)T00:00:00Z"
                let out = "\(s.path)/reader-\(reader).json"
                steps.append("REPLAY_TOOL_NOW=\(now) replay-tool \(Self.reports[(i + reader) % 4]) --log \(s.log) --format json > \(out) || exit 1")
                steps.append("REPLAY_TOOL_NOW=\(now) replay-tool notifications --at \(Self.pastInstant) --log \(s.log) --format json > \(out) || exit 1")
            }
            processes.append(try Self.start(steps.joined(separator: "; ")))
        }
        for p in processes {
            p.waitUntilExit()
            #expect(p.terminationReason == .exit && p.terminationStatus == 0, "a process failed")
        }
        for question in Self.reports.map({ [$0] }) + [["notifications", "--at", Self.pastInstant]] {
            let kept = Tool.run(question + ["--log", s.log, "--format", "json"], now: "2026-06-01T00:00:00Z")
            let full = Tool.run(question + ["--log", s.log, "--format", "json"], now: "2026-06-01T00:00:00Z", via: ["/usr/bin/env", "REPLAY_TOOL_REPORT_SUMMARY=off"])
            #expect(kept.status == 0 && kept.out == full.out, "\(question.joined(separator: " ")): the kept summary differs from a full fold")
        }
        let counts = Tool.json(Tool.run(["counts", "--log", s.log, "--format", "json"], now: "2026-06-01T00:00:00Z").out) as? [String: Any]
        #expect(counts?["paywall_viewed"] as? Int ?? 0 >= 4 * 1500)
    }
}
