import Cryptography

/// Checks an auditor's proofs offline with nothing but the log's verifier key: a user's records
/// and completeness against a signed checkpoint, and the consistency of two checkpoints.
/// Every check returns the first failure as a `ProofCheckFailure`.
public struct ProofChecker: Sendable {
    /// The log's verifier key.
    public let verifier: NoteVerifier

    /// A checker for the log whose verifier key text is `verifierKey`.
    public init(verifierKey: String) throws(ProofCheckFailure) {
        do {
            verifier = try NoteVerifier(keyText: verifierKey)
        } catch {
            throw ProofCheckFailure(.verifierKey, error.message)
        }
    }

    /// A checker for `verifier`.
    public init(verifier: NoteVerifier) { self.verifier = verifier }

    /// Opens a signed checkpoint: the signature by the verifier key, then the checkpoint text.
    public func openCheckpoint(_ signedCheckpoint: String) throws(ProofCheckFailure) -> Checkpoint {
        let note: SignedNote
        do {
            note = try SignedNote(opening: signedCheckpoint, verifier: verifier)
        } catch {
            throw ProofCheckFailure(.signature, error.message)
        }
        do {
            return try Checkpoint(text: note.text)
        } catch {
            throw ProofCheckFailure(.checkpoint, error.description)
        }
    }

    /// Reads and checks a user proof given as JSON bytes (see `check(_:expectedCheckpoint:userOfLine:)`).
    @discardableResult
    public func check(userProofJSON bytes: [UInt8], expectedCheckpoint: String? = nil,
                      userOfLine: (@Sendable (String) -> String?)? = nil) throws(ProofCheckFailure) -> CheckedUserProof {
        let proof: UserProof
        do {
            proof = try UserProof(jsonBytes: bytes)
        } catch {
            throw ProofCheckFailure(.format, error.description)
        }
        return try check(proof, expectedCheckpoint: expectedCheckpoint, userOfLine: userOfLine)
    }

    /// Checks a user proof: the checkpoint's signature and text (and, given `expectedCheckpoint`,
    /// that it is that very signed checkpoint); the size; record indices strictly increasing and
    /// below the size; each record's inclusion (leaf = the line's UTF-8 bytes); the user index
    /// entry's key = SHA-256(user), its inclusion under the checkpoint's user-smt root, and
    /// its count and chain = those of the records (or, for an absent user, no records and a
    /// valid absence proof). `userOfLine`, when given, must name the proof's user for every line.
    @discardableResult
    public func check(_ proof: UserProof, expectedCheckpoint: String? = nil,
                      userOfLine: (@Sendable (String) -> String?)? = nil) throws(ProofCheckFailure) -> CheckedUserProof {
        let checkpoint = try openCheckpoint(proof.checkpoint)
        if let expectedCheckpoint, !expectedCheckpoint.utf8.elementsEqual(proof.checkpoint.utf8) {
            throw ProofCheckFailure(.checkpointMismatch, "the proof's checkpoint is not the expected one")
        }
        guard proof.size == checkpoint.size else {
            throw ProofCheckFailure(.checkpointMismatch, "the proof says size \(proof.size), its checkpoint says \(checkpoint.size)")
        }
        let indexHead: UserIndexHead?
        do {
            indexHead = try checkpoint.userIndexHead()
        } catch {
            throw ProofCheckFailure(.checkpoint, error.description)
        }
        guard let head = indexHead else {
            throw ProofCheckFailure(.checkpoint, "the checkpoint has no user-smt line")
        }
        var chain = RecordChain()
        var previous: UInt64?
        for (i, record) in proof.records.enumerated() {
            if let previous, record.index <= previous {
                throw ProofCheckFailure(.recordOrder, record: i, "index \(record.index) does not follow index \(previous)")
            }
            guard record.index < checkpoint.size else {
                throw ProofCheckFailure(.recordOrder, record: i, "index \(record.index) is not below the tree size \(checkpoint.size)")
            }
            previous = record.index
            if let userOfLine {
                let owner = userOfLine(record.line)
                guard let owner, owner.utf8.elementsEqual(proof.user.utf8) else {
                    throw ProofCheckFailure(.recordUser, record: i, "the line at index \(record.index) is not \(quoted(proof.user))'s")
                }
            }
            let leafHash = MerkleTree.leafHash(Array(record.line.utf8))
            do {
                try MerkleTree.verifyInclusion(leafHash: leafHash, index: record.index, size: checkpoint.size,
                                               proof: record.inclusion, root: checkpoint.root)
            } catch {
                throw ProofCheckFailure(.inclusion, record: i, "index \(record.index): \(error.message)")
            }
            chain.append(leafHash: leafHash)
        }
        let indexed: RecordChain
        do {
            indexed = try proof.completeness.verify(user: proof.user, head: head)
        } catch {
            throw ProofCheckFailure(.userIndex, error.message)
        }
        guard indexed.count == chain.count else {
            throw ProofCheckFailure(.completeness, "the proof lists \(chain.count) records, the user index says \(indexed.count)")
        }
        guard indexed.hash == chain.hash else {
            throw ProofCheckFailure(.completeness, "the records' chain hash \(chain.hash) is not the user index's \(indexed.hash): a record was changed, swapped or replaced")
        }
        return CheckedUserProof(checkpoint: checkpoint, user: proof.user, records: proof.records.count)
    }

    /// Checks that the log of signed checkpoint `new` extends that of `old`: both signed by the
    /// verifier key, the proof's sizes theirs, and the consistency proof valid (RFC 9162 §2.1.4.2).
    /// From an empty checkpoint, the proof must be empty and the old root the empty tree's.
    public func checkConsistency(old: String, new: String, proof: ConsistencyProof) throws(ProofCheckFailure) {
        let oldCheckpoint = try openCheckpoint(old)
        let newCheckpoint = try openCheckpoint(new)
        guard proof.from == oldCheckpoint.size, proof.to == newCheckpoint.size else {
            throw ProofCheckFailure(.checkpointMismatch, "the proof is from size \(proof.from) to \(proof.to), the checkpoints have sizes \(oldCheckpoint.size) and \(newCheckpoint.size)")
        }
        if oldCheckpoint.size == 0 {
            guard proof.proof.isEmpty, oldCheckpoint.root == MerkleTree.emptyRoot else {
                throw ProofCheckFailure(.consistency, "a checkpoint of size 0 must have the empty tree's root and an empty proof")
            }
            return
        }
        do {
            try MerkleTree.verifyConsistency(oldSize: oldCheckpoint.size, newSize: newCheckpoint.size, oldRoot: oldCheckpoint.root,
                                             newRoot: newCheckpoint.root, proof: proof.proof)
        } catch {
            throw ProofCheckFailure(.consistency, error.message)
        }
    }

    /// Reads and checks a consistency proof given as JSON bytes.
    public func checkConsistency(old: String, new: String, proofJSON bytes: [UInt8]) throws(ProofCheckFailure) {
        let proof: ConsistencyProof
        do {
            proof = try ConsistencyProof(jsonBytes: bytes)
        } catch {
            throw ProofCheckFailure(.format, error.description)
        }
        try checkConsistency(old: old, new: new, proof: proof)
    }
}

/// What a checked user proof established.
public struct CheckedUserProof: Sendable, Equatable {
    /// The verified checkpoint.
    public var checkpoint: Checkpoint
    /// The user.
    public var user: String
    /// How many records the user has in the log at the checkpoint's size: all of them.
    public var records: Int
}
