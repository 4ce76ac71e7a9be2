import Testing
import TestKit
import LedgerFixture
import Cryptography
import Transparency
@testable import LogProofs

/// The store's answers from its files: a signed checkpoint of the head, each user's proof
/// against it (checked here as an auditor's checker would), and a checkpoint of another log refused.
@Suite struct ProofStoreAnswers {
    @Test("every user's proof against the head's checkpoint verifies and holds the user's export lines")
    func proofsVerify() throws {
        let log = try ProofLog()
        let store = try log.store()
        let signed = try store.checkpoint(signer: CheckpointTextParsing.signer)
        let checkpoint = try CheckpointText.unverified(signed)
        let lines = try log.exportLines()
        #expect(checkpoint.size == UInt64(lines.count) && checkpoint.root.bytes == ReferenceSHA256.root(lines[...]))
        for user in ["a", "b", "c", "d", "e", "nobody"] {
            let proof = try store.userProof(user: user, signedCheckpoint: signed)
            #expect(ProofStore.selfCheck(proof, checkpoint: checkpoint, indexHead: try #require(try checkpoint.userIndexHead())) == nil, "\(user)")
            let expected = lines.filter { ExportLine.user(ofLine: String(decoding: $0, as: UTF8.self)) == user }.map { String(decoding: $0, as: UTF8.self) }
            #expect(proof.records.map(\.line) == expected, "\(user)")
        }
        #expect(store.notes.isEmpty)
    }

    @Test("a checkpoint of another log, or beyond this log's head, is refused saying so")
    func anotherLogsCheckpoint() throws {
        let mine = try ProofLog(), other = try ProofLog(LedgerFixture.story + [line("17", "account_created", "z", "2026-01-07T00:00:00Z")])
        let foreign = try other.store().checkpoint(signer: CheckpointTextParsing.signer)
        let store = try mine.store()
        #expect(throws: ProofStoreError("not a checkpoint of this log: the checkpoint is of 17 records, the log has 16")) {
            try store.userProof(user: "a", signedCheckpoint: foreign)
        }
        let other2 = try ProofLog(LedgerFixture.story.map { $0.replacingOccurrences(of: "onboarding", with: "elsewhere") })
        let sameSize = try other2.store().checkpoint(signer: CheckpointTextParsing.signer)
        do {
            _ = try store.userProof(user: "a", signedCheckpoint: sameSize)
            Issue.record("another log's checkpoint accepted")
        } catch let e as ProofStoreError {
            #expect(e.message.hasPrefix("not a checkpoint of this log: its root at size 16 is "), "\(e.message)")
        }
    }
}
