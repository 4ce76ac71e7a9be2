import Foundation
import Testing
import TestKit

extension ConcurrentProcesses {
    /// A script importing `rounds` batches of new events (300, 600, … lines: `newEvents`, files in `s`) into `log`, one after the other.
    static func appendRounds(_ rounds: Int, to log: String, in s: Scratch) throws -> String {
        var appends: [String] = []
        for round in 0..<rounds {
            let events = s.path + "/new-\(round).jsonl"
            try newEvents(300 * (round + 1), round: round, to: events)
            appends.append("replay-tool import --log \(log) \(events) || exit 1")
        }
        return appends.joined(separator: "; ")
    }

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
        var processes = [try Self.start(try Self.appendRounds(4, to: s.log, in: s))]
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

    /// Under a changed rule (billing grace 7 days) two processes ask, at past instants and as of
    /// now, while a third appends: each derives the changed rule's index from the one kept under
    /// the shipped rules (brought up to the head it finds first), or brings its own up, or writes
    /// the same file as the other at the same time. Every query succeeds, and afterwards the
    /// changed rule's answers are a full fold's, byte for byte.
    @Test func aChangedRulesIndexDerivedWhileAnotherProcessAppendsAnswersAsAFold() throws {
        let s = Scratch()
        // A log with its index kept under the shipped rules, and the profile file of the changed rule.
        let (log, grace) = try ChangedRuleEndToEnd.keptLogAndGrace(s, users: 1500, seed: 12)
        let questions = [["counts", "--at", "2026-05-20T00:00:00Z"], ["revenue", "--at", "2026-05-25T12:00:00Z"], ["counts"], ["funnel"]]
        var processes = [try Self.start(try Self.appendRounds(3, to: log, in: s))]
        for reader in 0..<2 {
            let steps = (0..<6).map { i in
                "replay-tool \(questions[(i + reader) % questions.count].joined(separator: " ")) --log \(log) --profile \(grace) --format json > \(s.path)/out-\(reader) || exit 1"
            }
            processes.append(try Self.start(steps.joined(separator: "; ")))
        }
        for p in processes {
            p.waitUntilExit()
            #expect(p.terminationReason == .exit && p.terminationStatus == 0, "a process failed")
        }
        for q in questions {
            let args = q + ["--log", log, "--profile", grace, "--format", "json"]
            let kept = Tool.run(args, now: Self.now)
            let full = Tool.run(args, now: Self.now, via: ["/usr/bin/env", "REPLAY_TOOL_TIME_INDEX=off", "REPLAY_TOOL_REPORT_SUMMARY=off"])
            #expect(kept.status == 0 && kept.out == full.out, "\(q.joined(separator: " ")): the changed rule's kept index differs from a full fold")
        }
    }
}
