import Foundation
import SubscriptionDomain
import Testing
import TestKit
#if canImport(Glibc)
import Glibc
#endif

/// A plain import appends batch n on a second thread while it reads batch n + 1:
/// killed (SIGKILL) or stopped (SIGTERM) at any moment, the log holds whole batches of the file's
/// first lines, in the file's order, each event once; importing the file again completes it.
extension ConcurrentProcesses {
    @Test func bulkImportsKilledMidFileKeepWholeBatchesInOrderAndDoubleNothing() throws {
        let s = Scratch()
        let (file, lines) = try Self.generatedLog(s, users: 1000, seed: 12)
        // The ids in the order of their first line (the generator repeats a few: a client retrying).
        var inOrder: [String] = []
        var seen: Set<String> = []
        for line in lines {
            if let id = line.json["id"] as? String, seen.insert(id).inserted { inOrder.append(id) }
        }
        let seed = Self.seed("bulkImportsKilledMidFileKeepWholeBatchesInOrderAndDoubleNothing")
        var random = TestKit.SplitMix64(seed: seed)
        var held = 0
        var cutShort = 0   // rounds the signal stopped part way through the file
        for k in 0..<8 {
            let writer = try Self.start("REPLAY_TOOL_IMPORT_BATCH=\(5 + 3 * k) exec replay-tool import --log \(s.log) \(file)")
            usleep(UInt32.random(in: 5_000...80_000, using: &random))
            kill(writer.processIdentifier, k % 2 == 0 ? SIGKILL : SIGTERM)
            writer.waitUntilExit()
            let verified = Tool.run(["verify", "--log", s.log])
            #expect(verified.status == 0, "round \(k), seed \(seed): \(verified.out) \(verified.err)")
            let ids = FollowImport.exportedIDs(s.log)
            #expect(ids == Array(inOrder.prefix(ids.count)), "round \(k), seed \(seed): the log is not the file's first events in order, once each")
            #expect(ids.count >= held, "round \(k), seed \(seed): records were lost")
            held = ids.count
            if ids.count < inOrder.count { cutShort += 1 }
        }
        #expect(cutShort > 0, "no round was stopped part way: the test proved nothing (seed \(seed))")
        let finish = Tool.json(Tool.run(["import", "--log", s.log, file, "--format", "json"]).out) as? [String: Any]
        #expect((finish?["appended"] as? Int ?? -1) + (finish?["duplicates"] as? Int ?? -1) == lines.count, "seed \(seed)")
        #expect(FollowImport.exportedIDs(s.log) == inOrder, "seed \(seed)")
        #expect(Tool.run(["verify", "--log", s.log]).status == 0, "seed \(seed)")
    }
}
