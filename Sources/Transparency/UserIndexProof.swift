import Cryptography

/// What the completeness index says about one user: their entry with its inclusion proof, or
/// the entries on either side of where theirs would be.
public struct UserIndexProof: Sendable, Equatable {
    /// An index entry at a position, with its inclusion proof in the index tree.
    public struct EntryProof: Sendable, Equatable {
        /// The entry's position in the sorted index.
        public var position: UInt64
        /// The entry (key, count, chain hash).
        public var entry: UserIndexEntry
        /// The entry's inclusion proof (RFC 9162 audit path) in the index of `entries` entries.
        public var inclusion: [SHA256.Digest]

        /// An entry at `position` with its inclusion proof.
        public init(position: UInt64, entry: UserIndexEntry, inclusion: [SHA256.Digest]) {
            self.position = position
            self.entry = entry
            self.inclusion = inclusion
        }
    }

    /// Present with its entry, or absent between two neighbours (either missing at an edge,
    /// both missing for an empty index).
    public enum Membership: Sendable, Equatable {
        case present(EntryProof)
        case absent(left: EntryProof?, right: EntryProof?)
    }

    /// The number of entries of the index the proof is for.
    public var entries: UInt64
    /// Present with the entry, or absent with its neighbours.
    public var membership: Membership

    /// A proof for an index of `entries` entries.
    public init(entries: UInt64, membership: Membership) {
        self.entries = entries
        self.membership = membership
    }

    /// Checks the proof for `user` under the index head of a checkpoint and returns the entry's
    /// count and chain hash (zero records and the zero chain for an absent user).
    public func verify(user: String, head: UserIndexHead) throws(UserIndexProofError) -> RecordChain {
        guard entries == head.entries else {
            throw UserIndexProofError("the proof is for an index of \(entries) entries, the checkpoint's has \(head.entries)")
        }
        let key = UserIndexEntry.key(user: user)
        switch membership {
        case .present(let proof):
            guard proof.entry.key == key else {
                throw UserIndexProofError("the index entry at position \(proof.position) has key \(proof.entry.key), not SHA-256 of the user (\(key))")
            }
            try check(proof, role: "the user's entry", root: head.root)
            return RecordChain(count: proof.entry.count, hash: proof.entry.chainHash)
        case .absent(let left, let right):
            switch (left, right) {
            case (nil, nil):
                guard entries == 0, head.root == MerkleTree.emptyRoot else {
                    throw UserIndexProofError("an absence proof without neighbours needs the empty index, not one of \(entries) entries")
                }
            case (let left?, nil):
                guard entries > 0, left.position == entries - 1 else {
                    throw UserIndexProofError("the left neighbour alone must be the last of the \(entries) entries, is at position \(left.position)")
                }
            case (nil, let right?):
                guard right.position == 0 else {
                    throw UserIndexProofError("the right neighbour alone must be the first entry, is at position \(right.position)")
                }
            case (let left?, let right?):
                guard left.position < UInt64.max, right.position == left.position + 1 else {
                    throw UserIndexProofError("the neighbours at positions \(left.position) and \(right.position) are not adjacent")
                }
            }
            if let left {
                guard SHA256.Digest.precedes(left.entry.key, key) else {
                    throw UserIndexProofError("the left neighbour's key \(left.entry.key) is not below the user's key \(key)")
                }
                try check(left, role: "the left neighbour", root: head.root)
            }
            if let right {
                guard SHA256.Digest.precedes(key, right.entry.key) else {
                    throw UserIndexProofError("the right neighbour's key \(right.entry.key) is not above the user's key \(key)")
                }
                try check(right, role: "the right neighbour", root: head.root)
            }
            return RecordChain()
        }
    }

    func check(_ proof: EntryProof, role: String, root: SHA256.Digest) throws(UserIndexProofError) {
        do {
            try MerkleTree.verifyInclusion(leafHash: proof.entry.leafHash, index: proof.position, size: entries,
                                           proof: proof.inclusion, root: root)
        } catch {
            throw UserIndexProofError("\(role) at position \(proof.position) is not in the index: \(error.message)")
        }
    }
}
