import Cryptography

/// What the user index says about one user: the path from the index root down the bits of
/// SHA-256(user) to where it ends, the hashes beside it (`siblings`, from the root down), and
/// what ends it: the user's entry (present), or an empty subtree or another user's entry whose
/// key shares the path (absent). See `UserIndexTree` for the tree.
public struct UserIndexProof: Sendable, Equatable {
    /// What the path ends at.
    public enum Membership: Sendable, Equatable {
        /// The user's entry.
        case present(UserIndexEntry)
        /// No entry of the user: an empty subtree (nil) or the one entry of the subtree where
        /// the user's would be (another key with the same first bits).
        case absent(UserIndexEntry?)
    }

    /// The number of entries (users) of the index the proof is for.
    public var entries: UInt64
    /// The sibling hashes from the root's children down: `siblings[d]` is beside the path's
    /// node at depth `d + 1`; their count is the depth where the path ends (at most 256).
    public var siblings: [SHA256.Digest]
    /// Present with the entry, or absent.
    public var membership: Membership

    /// A proof for an index of `entries` entries.
    public init(entries: UInt64, siblings: [SHA256.Digest], membership: Membership) {
        self.entries = entries
        self.siblings = siblings
        self.membership = membership
    }

    /// Checks the proof for `user` under the index head of a checkpoint and returns the entry's
    /// count and chain hash (zero records and the zero chain for an absent user). Every link is
    /// checked: the key, the path's depth, that a leaf sits as high as it can, each sibling on
    /// the way to the root, the root.
    public func verify(user: String, head: UserIndexHead) throws(UserIndexProofError) -> RecordChain {
        guard entries == head.entries else {
            throw UserIndexProofError("the proof is for an index of \(entries) entries, the checkpoint's has \(head.entries)")
        }
        let depth = siblings.count
        guard depth <= UserIndexTree.maxDepth else {
            throw UserIndexProofError("a path of \(depth) siblings, deeper than the key's \(UserIndexTree.maxDepth) bits")
        }
        let key = UserIndexEntry.key(user: user)
        var node: SHA256.Digest
        let result: RecordChain
        switch membership {
        case .present(let entry):
            guard entry.key == key else {
                throw UserIndexProofError("the entry has key \(entry.key), not SHA-256 of the user (\(key))")
            }
            node = entry.leafHash
            result = RecordChain(count: entry.count, hash: entry.chainHash)
        case .absent(let other?):
            guard other.key != key else {
                throw UserIndexProofError("the absence proof ends at the user's own entry")
            }
            guard other.key.sharesPrefix(with: key, bits: depth) else {
                throw UserIndexProofError("the entry ending the absence proof (key \(other.key)) is not on the user's path at depth \(depth)")
            }
            node = other.leafHash
            result = RecordChain()
        case .absent(nil):
            node = UserIndexTree.emptyHash
            result = RecordChain()
        }
        if depth == 0 {
            let expected: UInt64 = if case .absent(nil) = membership { 0 } else { 1 }
            guard entries == expected else {
                throw UserIndexProofError("a path of depth 0 ending at \(expected == 0 ? "the empty tree" : "one entry") needs an index of \(expected) entries, not \(entries)")
            }
        } else if siblings[depth - 1] == UserIndexTree.emptyHash {
            // A subtree of one entry (or none) sits as high as it can: its sibling is never empty.
            throw UserIndexProofError("wrong depth: the path ends at depth \(depth) beside an empty subtree")
        }
        for d in stride(from: depth - 1, through: 0, by: -1) {
            node = key.bit(d) ? MerkleTree.nodeHash(siblings[d], node) : MerkleTree.nodeHash(node, siblings[d])
        }
        guard node == head.root else {
            throw UserIndexProofError("the path is not in the index: it gives root \(node), the checkpoint's is \(head.root)")
        }
        return result
    }
}
