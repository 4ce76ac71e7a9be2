import Foundation
import Testing
import TestKit

extension ChangedRuleEndToEnd {
    /// A changed rule whose report summary is kept is answered as of now from that summary: no
    /// index is derived for it, and the answer is the fold's all the same.
    @Test(.timeLimit(.minutes(5))) func aChangedRuleWhoseSummaryIsKeptIsAnsweredFromItAsOfNow() throws {
        let s = Scratch()
        let (log, grace) = try Self.keptLogAndGrace(s, users: 200, seed: 11)
        let question = ["counts", "--log", log, "--profile", grace, "--format", "json"]
        let now = ["REPLAY_TOOL_NOW": "2026-06-01T00:00:00Z"]
        // Asked once without the index: the changed rule's summary is kept.
        let folded = Tool.run(question, environment: now.merging(["REPLAY_TOOL_TIME_INDEX": "off"]) { $1 })
        #expect(folded.status == 0)
        func kept() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: log + "/projections") }
        let before = try kept()
        #expect(before.filter { $0.hasSuffix(".summary") }.count == 1 && before.filter { $0.hasSuffix(".timeindex") }.count == 1, "\(before)")
        let answered = Tool.run(question, environment: now)
        #expect(answered.status == 0 && answered.out == folded.out && answered.err == folded.err)
        let after = try kept()
        #expect(after.filter { $0.hasSuffix(".timeindex") }.count == 1, "answered from the summary, no index derived: \(after)")
    }
}
