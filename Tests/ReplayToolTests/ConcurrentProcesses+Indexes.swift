import Foundation
import SubscriptionDomain
import Testing
import TestKit
#if canImport(Glibc)
import Glibc
#endif

/// The index files under real processes: writers killed (SIGKILL) at any point of appending and
/// saving their indexes, while readers look users up.
extension ConcurrentProcesses {
    /// One user's `history` and `state` as JSON, and the log's ids in order.
    static func lookups(_ log: String, users: [String]) -> [String] {
        users.flatMap { u in
            ["history", "state"].map { Tool.run([$0, "--log", log, "--user", u, "--format", "json"], now: now).out }
        }
    }

    /// Writers that write a run every few dozen records are killed at random moments, eight times,
    /// while readers query users; then one import finishes. Every event is in the log exactly once,
    /// a further import finds every line a duplicate, and every lookup answers as a log whose index
    /// files were removed (indexed again from the segments).
    @Test func writersKilledBetweenAppendingAndSavingIndexesLoseAndDoubleNothing() throws {
        let s = Scratch()
        let (file, lines) = try Self.generatedLog(s, users: 300, seed: 11)
        // The generator repeats a few ids (a client retrying): each is in the log once.
        let total = Set(lines.compactMap { $0.json["id"] as? String }).count
        let users = ["u_0", "u_7", "u_150", "u_299", "nobody"]
        let seed = Self.seed("writersKilledBetweenAppendingAndSavingIndexesLoseAndDoubleNothing")
        var random = TestKit.SplitMix64(seed: seed)
        for k in 0..<8 {
            let writer = try Self.start("REPLAY_TOOL_INDEX_FLUSH_RECORDS=\(23 + 7 * k) exec replay-tool import --log \(s.log) \(file)")
            let errors = s.path + "/reader-\(k).err"
            let reader = try Self.start((0..<3).map { _ in "replay-tool history --log \(s.log) --user u_\(Int.random(in: 0..<300, using: &random)) --format json > /dev/null 2>>\(errors) || exit 1" }.joined(separator: "; "))
            usleep(UInt32.random(in: 10_000...300_000, using: &random))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            reader.waitUntilExit()
            #expect(reader.terminationStatus == 0, "round \(k), seed \(seed): a reader failed beside the killed writer: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        }
        let finish = Tool.json(Tool.run(["import", "--log", s.log, file, "--format", "json"]).out) as? [String: Any]
        #expect((finish?["appended"] as? Int ?? -1) + (finish?["duplicates"] as? Int ?? -1) == lines.count, "seed \(seed)")
        let again = Tool.json(Tool.run(["import", "--log", s.log, file, "--format", "json"]).out) as? [String: Any]
        #expect(again?["appended"] as? Int == 0 && again?["duplicates"] as? Int == lines.count, "seed \(seed)")
        let ids = FollowImport.exportedIDs(s.log)
        #expect(ids.count == total && Set(ids).count == total, "seed \(seed)")
        let withFiles = Self.lookups(s.log, users: users)
        #expect(FileManager.default.fileExists(atPath: s.log + "/indexes/manifest"), "seed \(seed)")
        try FileManager.default.removeItem(atPath: s.log + "/indexes")
        #expect(withFiles == Self.lookups(s.log, users: users), "seed \(seed)")
        #expect(Tool.run(["verify", "--log", s.log]).status == 0, "seed \(seed)")
    }
}
