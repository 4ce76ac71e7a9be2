import Foundation
import Testing
import Cryptography
@testable import Transparency

/// End to end: a log, its signed checkpoint, `prove` for each user, and every forgery refused
/// with the check that catches it.
@Suite struct ProofCheckerForgeries {
    static let log = TestLog(count: 60, userCount: 6, seed: 0x5EED)

    static func checker() throws -> ProofChecker { try ProofChecker(verifierKey: TestLog.signer.verifierKeyText) }

    /// The failure of checking `proof`, or nil when it passes.
    static func failure(_ proof: UserProof, expected: String? = nil, userOfLine: (@Sendable (String) -> String?)? = nil) throws -> ProofCheckFailure? {
        do {
            try checker().check(proof, expectedCheckpoint: expected, userOfLine: userOfLine)
            return nil
        } catch let failure as ProofCheckFailure {
            return failure
        }
    }

    @Test("every user's genuine proof passes, listing all of that user's records; an absent user's too")
    func genuine() throws {
        let checkpoint = try Self.log.checkpoint()
        let checker = try Self.checker()
        for user in Set(Self.log.users) {
            let proof = try Self.log.proof(user: user, checkpoint: checkpoint)
            let checked = try checker.check(userProofJSON: proof.jsonBytes, expectedCheckpoint: checkpoint, userOfLine: TestLog.userOfLine)
            #expect(checked.records == Self.log.users.filter { $0 == user }.count)
            #expect(checked.checkpoint.size == 60)
        }
        let absent = try Self.log.proof(user: "user-unknown", checkpoint: checkpoint)
        #expect(absent.records.isEmpty)
        #expect(try checker.check(absent).records == 0)
    }

    @Test("a record dropped, added, reordered or changed is refused, each by its check")
    func recordForgeries() throws {
        let checkpoint = try Self.log.checkpoint()
        let proof = try Self.log.proof(user: "user-2", checkpoint: checkpoint)
        let other = try Self.log.proof(user: "user-3", checkpoint: checkpoint)
        try #require(proof.records.count >= 3)

        var dropped = proof
        dropped.records.remove(at: 1)
        #expect(try Self.failure(dropped)?.check == .completeness)

        var droppedLast = proof
        droppedLast.records.removeLast()
        #expect(try Self.failure(droppedLast)?.check == .completeness)

        // Another user's genuine record (valid inclusion) slipped in at its place in log order.
        var added = proof
        let intruder = try #require(other.records.first)
        added.records.append(intruder)
        added.records.sort { $0.index < $1.index }
        #expect(try Self.failure(added)?.check == .completeness)
        #expect(try Self.failure(added, userOfLine: TestLog.userOfLine)?.check == .recordUser)

        var reordered = proof
        reordered.records.swapAt(0, 1)
        #expect(try Self.failure(reordered)?.check == .recordOrder)

        // Lines swapped while the indices stay increasing: inclusion fails.
        var swappedLines = proof
        (swappedLines.records[0].line, swappedLines.records[1].line) = (swappedLines.records[1].line, swappedLines.records[0].line)
        let swapped = try Self.failure(swappedLines)
        #expect(swapped?.check == .inclusion && swapped?.record == 0)

        var duplicated = proof
        duplicated.records.insert(proof.records[0], at: 1)
        #expect(try Self.failure(duplicated)?.check == .recordOrder)

        var changed = proof
        changed.records[2].line = changed.records[2].line.replacingOccurrences(of: "renewal", with: "refund")
        let failure = try Self.failure(changed)
        #expect(failure?.check == .inclusion && failure?.record == 2)
        #expect(failure?.description.hasPrefix("inclusion: record 2: index ") == true)

        var pastEnd = proof
        pastEnd.records[pastEnd.records.count - 1].index = 60
        #expect(try Self.failure(pastEnd)?.check == .recordOrder)

        // Records listed for an absent user.
        var absent = try Self.log.proof(user: "user-unknown", checkpoint: checkpoint)
        absent.records = [intruder]
        #expect(try Self.failure(absent)?.check == .completeness)
    }

    @Test("another user's index entry, or a false absence, is refused by the user index check")
    func indexForgeries() throws {
        let checkpoint = try Self.log.checkpoint()
        let proof = try Self.log.proof(user: "user-2", checkpoint: checkpoint)
        let other = try Self.log.proof(user: "user-3", checkpoint: checkpoint)
        var borrowed = proof
        borrowed.completeness = other.completeness
        #expect(try Self.failure(borrowed)?.check == .userIndex)

        // Hiding all of user-2's records behind another user's absence proof.
        var hidden = proof
        hidden.records = []
        hidden.completeness = try Self.log.proof(user: "user-unknown", checkpoint: checkpoint).completeness
        #expect(try Self.failure(hidden)?.check == .userIndex)

        // Claiming the user's entry says one record fewer (the entry no longer hashes to the leaf).
        var recounted = proof
        if case .present(var entry) = recounted.completeness.membership {
            entry.count -= 1
            recounted.completeness.membership = .present(entry)
        }
        recounted.records.removeLast()
        #expect(try Self.failure(recounted)?.check == .userIndex)
    }

    @Test("a proof against another checkpoint, or a checkpoint signed by another key, is refused")
    func checkpointForgeries() throws {
        let checkpoint = try Self.log.checkpoint()
        let proof = try Self.log.proof(user: "user-1", checkpoint: checkpoint)

        // A later checkpoint of the grown log: the old proof's size no longer matches.
        var grown = Self.log
        grown.append(line: "{\"position\":61,\"user\":\"user-1\",\"type\":\"renewal\",\"amount\":1}", user: "user-1")
        let later = try grown.checkpoint()
        #expect(try Self.failure(proof, expected: later)?.check == .checkpointMismatch)
        var swappedCheckpoint = proof
        swappedCheckpoint.checkpoint = later
        #expect(try Self.failure(swappedCheckpoint)?.check == .checkpointMismatch)
        swappedCheckpoint.size = 61
        // Same size now, but the old inclusion proofs lead to the old root.
        #expect(try Self.failure(swappedCheckpoint)?.check == .inclusion)

        // Signed by another key under the same name: another key hash, so no signature by ours.
        let stranger = try NoteSigner(name: "ledger.example/log", privateKey: #require(Ed25519.PrivateKey(seed: [UInt8](repeating: 0x99, count: 32))))
        var foreign = proof
        foreign.checkpoint = try Self.log.checkpoint(signer: stranger)
        let failure = try Self.failure(foreign)
        #expect(failure?.check == .signature)
        #expect(failure?.description.contains("no signature by ledger.example/log+") == true)

        // Our key's line with a signature over other text.
        var tampered = proof
        tampered.checkpoint = checkpoint.replacingOccurrences(of: "\n60\n", with: "\n59\n")
        #expect(try Self.failure(tampered)?.check == .signature)

        // A signed checkpoint with no user-smt line.
        var bare = proof
        bare.checkpoint = try Checkpoint(origin: "ledger.example/log", size: 60, root: Self.log.accumulator.root).signed(by: TestLog.signer)
        #expect(try Self.failure(bare)?.check == .checkpoint)

        // A signed text that is no checkpoint.
        var notCheckpoint = proof
        notCheckpoint.checkpoint = try SignedNote.sign("ledger.example/log\n060\nroot\n", by: TestLog.signer)
        #expect(try Self.failure(notCheckpoint)?.check == .checkpoint)

        #expect(throws: ProofCheckFailure.self) { try ProofChecker(verifierKey: "not a key") }
    }

    @Test("consistency: a genuine proof between two checkpoints passes; a rewritten log's is refused")
    func consistency() throws {
        let checker = try Self.checker()
        var older = TestLog(count: 0, userCount: 1, seed: 1)
        let newer = Self.log
        for (line, user) in zip(Self.log.lines.prefix(23), Self.log.users.prefix(23)) { older.append(line: line, user: user) }
        let oldCheckpoint = try older.checkpoint()
        let newCheckpoint = try newer.checkpoint()
        let proof = try ConsistencyProof(from: 23, to: 60, log: newer.stored)
        try checker.checkConsistency(old: oldCheckpoint, new: newCheckpoint, proofJSON: proof.jsonBytes)
        try checker.checkConsistency(old: newCheckpoint, new: newCheckpoint, proof: ConsistencyProof(from: 60, to: 60, proof: []))

        // The log rewritten: record 5 changed, then re-signed at the same size.
        var rewritten = TestLog(count: 0, userCount: 1, seed: 1)
        for (i, (line, user)) in zip(Self.log.lines, Self.log.users).enumerated() {
            rewritten.append(line: i == 5 ? line.replacingOccurrences(of: "renewal", with: "refund") : line, user: user)
        }
        let rewrittenCheckpoint = try rewritten.checkpoint()
        let rewrittenProof = try ConsistencyProof(from: 23, to: 60, log: rewritten.stored)
        func failure(_ old: String, _ new: String, _ proof: ConsistencyProof) -> ProofCheckFailure? {
            do {
                try checker.checkConsistency(old: old, new: new, proof: proof)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(oldCheckpoint, rewrittenCheckpoint, rewrittenProof)?.check == .consistency)
        #expect(failure(oldCheckpoint, rewrittenCheckpoint, proof)?.check == .consistency)
        // Sizes that are not the checkpoints'.
        #expect(failure(oldCheckpoint, newCheckpoint, ConsistencyProof(from: 22, to: 60, proof: proof.proof))?.check == .checkpointMismatch)
        // Truncated and padded proofs.
        #expect(failure(oldCheckpoint, newCheckpoint, ConsistencyProof(from: 23, to: 60, proof: Array(proof.proof.dropLast())))?.check == .consistency)
        #expect(failure(oldCheckpoint, newCheckpoint, ConsistencyProof(from: 23, to: 60, proof: proof.proof + [MerkleTree.emptyRoot]))?.check == .consistency)
        // Backwards.
        #expect(failure(newCheckpoint, oldCheckpoint, ConsistencyProof(from: 60, to: 23, proof: proof.proof))?.check == .consistency)
        // From an empty log: any later checkpoint extends it, with an empty proof.
        let empty = try TestLog(count: 0, userCount: 1, seed: 1).checkpoint()
        #expect(failure(empty, newCheckpoint, ConsistencyProof(from: 0, to: 60, proof: [])) == nil)
        #expect(failure(empty, newCheckpoint, ConsistencyProof(from: 0, to: 60, proof: [MerkleTree.emptyRoot]))?.check == .consistency)
        // Malformed JSON.
        do {
            try checker.checkConsistency(old: oldCheckpoint, new: newCheckpoint, proofJSON: Array("{\"from\":23,\"to\":60}".utf8))
            Issue.record("accepted a proof without its hashes")
        } catch {
            #expect(error.check == .format)
        }
    }

    @Test("a proof whose size overflows 64 bits, or disagrees with the checkpoint, is refused")
    func sizes() throws {
        let checkpoint = try Self.log.checkpoint()
        let proof = try Self.log.proof(user: "user-1", checkpoint: checkpoint)
        let text = String(decoding: proof.jsonBytes, as: UTF8.self)
        let checker = try Self.checker()
        do {
            try checker.check(userProofJSON: Array(text.replacingOccurrences(of: "\"size\":60", with: "\"size\":18446744073709551676").utf8))
            Issue.record("accepted an overflowing size")
        } catch {
            #expect(error.check == .format)
        }
        var wrongSize = proof
        wrongSize.size = 61
        #expect(try Self.failure(wrongSize)?.check == .checkpointMismatch)
        var hugeIndex = proof
        hugeIndex.records[0].index = UInt64.max
        #expect(try Self.failure(hugeIndex)?.check == .recordOrder)
    }
}
