import Foundation
import SubscriptionDomain
import Testing
import TestKit

/// Readers, rebuilds and appends as real processes in random interleavings: whatever the order,
/// once the writers stop, every report answers what a quiet rebuild of the same log answers.
@Suite struct ConcurrentProcesses {
    static let now = "2026-06-01T00:00:00Z"
    static let reports = ["counts", "funnel", "revenue", "notifications"]

    /// The seed of a test's random choices (which process does what, when a writer is stopped):
    /// `STRESS_SEED` when set, to replay a failure's choices, else a new one. Printed, and named in
    /// the test's failure messages.
    static func seed(_ test: String) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment["STRESS_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (STRESS_SEED=\(seed) replays its random choices)")
        return seed
    }

    /// A shell running `script` with the tool on its PATH; started, not waited for.
    static func start(_ script: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["REPLAY_TOOL_NOW"] = now
        env["PATH"] = URL(fileURLWithPath: Tool.binary).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// A generated population written to scratch/events.jsonl, and a log holding its first 20
    /// lines (so that the log exists before the first process is killed or a reader starts: a
    /// folder without a log fails them, rightly). Returns the file and its lines.
    static func generatedLog(_ s: Scratch, users: Int, seed: Int) throws -> (file: String, lines: [Substring]) {
        let file = s.path + "/events.jsonl"
        let generated = Tool.run(["generate", "--users", "\(users)", "--seed", "\(seed)"]).out
        try generated.write(toFile: file, atomically: true, encoding: .utf8)
        let lines = generated.split(separator: "\n")
        let first = s.path + "/first.jsonl"
        try lines.prefix(20).joined(separator: "\n").write(toFile: first, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, first]).status == 0)
        return (file, lines)
    }

    /// New events, each its user's latest: a paywall view per existing user, a purchase per new one.
    static func newEvents(_ count: Int, round: Int, to path: String) throws {
        var lines: [String] = []
        for n in 0..<count {
            let day = 10 + n % 18
            lines.append(#"{"id":"r\#(round)-view-\#(n)","type":"paywall_viewed","user":"u_\#(n % 1500)","time":"2026-05-\#(day)T10:00:00Z","data":{"context":"settings"}}"#)
            if n % 5 == 0 {
                lines.append(#"{"id":"r\#(round)-buy-\#(n)","type":"purchase","user":"new-\#(round)-\#(n)","time":"2026-05-\#(day)T11:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t-\#(round)-\#(n)","expires":"2026-06-\#(day)T11:00:00Z","price":"9.99","currency":"USD"}}"#)
            }
        }
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// One writer appends thousands of events in batches (one commit per 1,000 lines) while readers,
    /// each under its own copy of the profile (so each keeps its own projection), build their first
    /// projection, catch up, rebuild and write the event cache at random moments. The rules of every
    /// copy are handz's, so every kept projection must then answer what a quiet rebuild answers.
    @Test func reportsAfterAnyInterleavingEqualAQuietRebuild() throws {
        let s = Scratch()
        let base = s.path + "/base.jsonl"
        try Tool.run(["generate", "--users", "2000", "--seed", "7"]).out.write(toFile: base, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, base]).status == 0)
        let handz = Tool.run(["profiles", "show", "handz"]).out
        let seed = Self.seed("reportsAfterAnyInterleavingEqualAQuietRebuild")
        var random = TestKit.SplitMix64(seed: seed)
        // Two rounds in `swift test`; STRESS_ROUNDS=N runs N (a longer run by hand or in a nightly job).
        let rounds = ProcessInfo.processInfo.environment["STRESS_ROUNDS"].flatMap { Int($0) } ?? 2
        for round in 0..<rounds {
            let events = s.path + "/new-\(round).jsonl"
            try Self.newEvents(8000, round: round, to: events)
            var processes = [try Self.start("replay-tool import --log \(s.log) \(events)")]
            var profiles: [String] = []
            for reader in 0..<6 {
                let profile = s.path + "/r\(round)-p\(reader).json"
                try handz.replacingOccurrences(of: #""name" : "handz""#, with: #""name" : "r\#(round)-p\#(reader)""#)
                    .write(toFile: profile, atomically: true, encoding: .utf8)
                profiles.append(profile)
                var steps = ["sleep 0.\(Int.random(in: 0..<8, using: &random))"]
                for _ in 0..<3 {
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0: steps.append("rm -f \(s.log)/projections/r\(round)-p\(reader)-*")
                    case 1: steps.append("replay-tool cache --log \(s.log) || exit 1")
                    default: steps.append("replay-tool \(Self.reports.randomElement(using: &random)!) --log \(s.log) --profile \(profile) --format json || exit 1")
                    }
                    steps.append("sleep 0.\(Int.random(in: 0..<3, using: &random))")
                }
                processes.append(try Self.start(steps.joined(separator: "; ")))
            }
            for p in processes {
                p.waitUntilExit()
                #expect(p.terminationReason == .exit && p.terminationStatus == 0, "round \(round), seed \(seed): a process failed")
            }
            // Each reader's kept projection (caught up now) against a rebuild from nothing.
            // (Two reports per reader keep the test short; every report is compared for the first reader.)
            let kept = profiles.enumerated().map { k, profile in
                Self.reports.prefix(k == 0 ? 4 : 2).map { Tool.run([$0, "--log", s.log, "--profile", profile, "--format", "json"], now: Self.now).out }
            }
            try? FileManager.default.removeItem(atPath: s.log + "/projections")
            let quiet = Self.reports.map { Tool.run([$0, "--log", s.log, "--format", "json"], now: Self.now).out }
            for (k, answers) in kept.enumerated() {
                for (i, report) in Self.reports.prefix(answers.count).enumerated() {
                    #expect(answers[i] == quiet[i], "round \(round), reader \(k), seed \(seed): \(report) from the kept projection differs from a quiet rebuild")
                }
            }
            let counts = Tool.json(quiet[0]) as? [String: Any]
            #expect(counts?["paywall_viewed"] as? Int ?? 0 >= (round + 1) * 8000, "round \(round), seed \(seed)")
        }
        #expect(Tool.run(["verify", "--log", s.log]).status == 0, "seed \(seed)")
    }
}
