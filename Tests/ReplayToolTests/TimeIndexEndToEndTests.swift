import Foundation
import Testing
import TestKit
import SubscriptionDomain

/// `counts`, `funnel` and `revenue` at past instants, in windows and as `counts --by` series,
/// read from the time index, print the same bytes as the fold (`REPLAY_TOOL_TIME_INDEX=off`),
/// on one log and over partition logs of it, and again after appends.
@Suite struct TimeIndexEndToEnd {
    static func run(_ args: [String], fold: Bool) -> ToolRun {
        Tool.run(args, environment: fold ? ["REPLAY_TOOL_TIME_INDEX": "off"] : [:])
    }

    static func question(_ rng: inout TestKit.SplitMix64) -> [String] {
        func day() -> String {
            let d = Timestamp.parse("2026-01-01T00:00:00Z")! + .init(nanoseconds: Int64(rng.next() % (240 * 86_400)) * 1_000_000_000)
            return d.description
        }
        let (a, b) = (day(), day())
        var (from, to) = (min(a, b), max(a, b))
        // Half the windows start at a midnight (read from the index), half within a day (folded).
        if rng.next() % 2 == 0 { from = String(from.prefix(10)) + "T00:00:00Z" }
        switch rng.next() % 12 {
        case 7: return ["funnel", "--from", from, "--to", to]
        case 8: return ["funnel", rng.next() % 2 == 0 ? "--from" : "--to", from]
        case 9: return ["revenue", "--from", from, "--to", rng.next() % 3 == 0 ? from : to]
        case 10: return ["revenue", "--by", ["day", "week", "month"][Int(rng.next() % 3)], "--at", a] + (rng.next() % 2 == 0 ? ["--from", from] : [])
        case 11: return ["funnel", "--by", "week", "--to", to] + (from < to && rng.next() % 2 == 0 ? ["--from", from] : [])
        case 0: return ["counts", "--at", a]
        case 1: return ["funnel", "--at", a]
        case 2: return ["revenue", "--at", a]
        case 3: return from < to ? ["counts", "--from", from, "--to", to] : ["counts", "--from", from, "--at", to]
        case 4: return ["counts", "--by", ["day", "week", "month"][Int(rng.next() % 3)], "--at", a]
        case 5: return ["counts", "--by", "week", "--from", from, "--to", to == from ? "2026-06-01T00:00:00Z" : to]
        default: return ["funnel", "--by", "month", "--at", a]
        }
    }

    @Test(.timeLimit(.minutes(5))) func reportsFromTheIndexPrintTheFoldsBytesAtRandomInstantsOnOneLogAndOverPartitionsAndAfterAppends() throws {
        let seed: UInt64 = 17
        var rng = TestKit.SplitMix64(seed: seed)
        let s = Scratch()
        let file = s.path + "/all.jsonl", more = s.path + "/more.jsonl"
        #expect(Tool.run(["generate", "--users", "400", "--seed", "5", "--out", file]).status == 0)
        #expect(Tool.run(["generate", "--users", "150", "--seed", "6", "--out", more]).status == 0)
        let single = [s.path + "/single"], parts = [s.path + "/p0", s.path + "/p1"]
        for round in 0..<2 {
            let input = round == 0 ? file : more
            #expect(Tool.run(["import", "--log", single[0], input]).status == 0)
            for (p, log) in parts.enumerated() { #expect(Tool.run(["import", "--log", log, "--partition", "\(p)/2", input]).status == 0) }
            for i in 0..<16 {
                // One question in four counts sandbox events too (the index of its own).
                let q = Self.question(&rng) + (rng.next() % 4 == 0 ? ["--include-sandbox"] : [])
                for logs in [single, parts] {
                    let args = q + logs.flatMap { ["--log", $0] } + ["--format", "json"]
                    let folded = Self.run(args, fold: true), indexed = Self.run(args, fold: false)
                    #expect(folded.status == indexed.status && folded.out == indexed.out && folded.err == indexed.err,
                            "seed \(seed) round \(round) question \(i): replay-tool \(args.joined(separator: " "))")
                    #expect(folded.status == 0, "seed \(seed) round \(round) question \(i): \(folded.err)")
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(5))) func aReportFromTheIndexIsTheFoldsPageByteForByteOnOneLogAndOverPartitions() throws {
        let seed: UInt64 = 23
        var rng = TestKit.SplitMix64(seed: seed)
        let s = Scratch()
        let file = s.path + "/all.jsonl"
        #expect(Tool.run(["generate", "--users", "300", "--seed", "7", "--out", file]).status == 0)
        let single = [s.path + "/single"], parts = [s.path + "/p0", s.path + "/p1"]
        #expect(Tool.run(["import", "--log", single[0], file]).status == 0)
        for (p, log) in parts.enumerated() { #expect(Tool.run(["import", "--log", log, "--partition", "\(p)/2", file]).status == 0) }
        // Read from the index, not folded: the index is built for it and no projection (a window
        // from a midnight first, then as of an instant).
        for q in [["--from", "2026-03-01T00:00:00Z", "--to", "2026-05-01T00:00:00Z"], ["--at", "2026-05-01T00:00:00Z"]] {
            #expect(Self.run(["report", "--out", "-", "--log", single[0]] + q, fold: false).status == 0)
            let files = try FileManager.default.contentsOfDirectory(atPath: single[0] + "/projections")
            #expect(files.contains { $0.hasSuffix(".timeindex") } && !files.contains { $0.hasSuffix(".projection") }, "report \(q): \(files)")
        }
        let grace7 = try PartitionedLedger.grace7(s)
        for i in 0..<4 {
            let day = Timestamp.parse("2026-02-01T00:00:00Z")! + .init(nanoseconds: Int64(rng.next() % (200 * 86_400)) * 1_000_000_000)
            var q = ["report", "--out", "-", rng.next() % 2 == 0 ? "--at" : "--to", day.description]
            if i == 3 { q += ["--profile", "handz", "--profile", grace7] }
            // A window from a midnight (read from the index) and one from within a day (folded).
            if i == 1 || i == 2 {
                let from = (day - .days(Int(rng.next() % 60) + 1)).description
                q += ["--from", i == 1 ? String(from.prefix(10)) + "T00:00:00Z" : from]
            }
            for logs in [single, parts] {
                let args = q + logs.flatMap { ["--log", $0] }
                let folded = Self.run(args, fold: true), indexed = Self.run(args, fold: false)
                #expect(folded.status == 0 && folded.status == indexed.status && folded.out == indexed.out && folded.err == indexed.err,
                        "seed \(seed) report \(i): replay-tool \(args.joined(separator: " "))")
            }
        }
    }
}

/// A developer changes a rule and asks again: the index under the new profile is derived from the
/// one kept under the old, as of now too, and every answer is the fold's byte for byte.
@Suite struct ChangedRuleEndToEnd {
    /// A generated log of `users` with its index kept under the shipped rules, and a profile file
    /// with billing grace 7 days: the log's folder and the file's path (in `s`).
    static func keptLogAndGrace(_ s: Scratch, users: Int, seed: Int) throws -> (log: String, grace: String) {
        let file = s.path + "/all.jsonl", log = s.path + "/log"
        #expect(Tool.run(["generate", "--users", "\(users)", "--seed", "\(seed)", "--out", file]).status == 0)
        #expect(Tool.run(["import", "--log", log, file]).status == 0)
        #expect(Tool.run(["counts", "--log", log, "--at", "2026-04-01T00:00:00Z"]).status == 0)
        let grace = s.path + "/grace7.json"
        let profile = Tool.run(["profiles", "show", "handz"]).out.replacingOccurrences(of: "\"billingGraceDays\" : 3", with: "\"billingGraceDays\" : 7")
        #expect(profile.contains("\"billingGraceDays\" : 7"))
        try profile.write(toFile: grace, atomically: true, encoding: .utf8)
        return (log, grace)
    }

    @Test(.timeLimit(.minutes(5))) func questionsUnderAChangedRuleAreTheFoldsAnswersAsOfNowAndAtPastInstants() throws {
        let s = Scratch()
        let (log, grace) = try Self.keptLogAndGrace(s, users: 300, seed: 8)
        for args in [["counts"], ["revenue"], ["funnel"], ["revenue", "--at", "2026-05-01T00:00:00Z"], ["counts", "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"]] {
            let question = args + ["--log", log, "--profile", grace, "--format", "json"]
            let indexed = Tool.run(question, environment: ["REPLAY_TOOL_NOW": "2026-06-01T00:00:00Z"])
            let folded = Tool.run(question, environment: ["REPLAY_TOOL_NOW": "2026-06-01T00:00:00Z", "REPLAY_TOOL_TIME_INDEX": "off", "REPLAY_TOOL_REPORT_SUMMARY": "off"])
            #expect(indexed.status == 0 && indexed.out == folded.out && indexed.err == folded.err, "replay-tool \(question.joined(separator: " "))")
        }
        // As of now, the changed rule was answered from its index (derived), not from a summary of its own.
        let kept = try FileManager.default.contentsOfDirectory(atPath: log + "/projections")
        #expect(kept.filter { $0.hasSuffix(".timeindex") }.count == 2, "\(kept)")
        #expect(kept.filter { $0.hasSuffix(".summary") }.isEmpty, "\(kept)")
    }
}
