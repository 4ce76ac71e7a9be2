import Cryptography

/// A node of the user index's sparse Merkle tree (`UserIndexTree`): a leaf holding one user's
/// entry, or an inner node holding its two children's hashes and references. A reference of 0
/// is the empty subtree.
public enum UserIndexNode: Sendable, Equatable {
    /// A subtree holding exactly one entry.
    case leaf(UserIndexEntry)
    /// A subtree holding two or more entries: its children's hashes and references.
    case inner(leftHash: SHA256.Digest, rightHash: SHA256.Digest, left: UInt64, right: UInt64)

    /// The node's hash: the entry's leaf hash, or SHA-256(0x01 || left || right).
    public var hash: SHA256.Digest {
        switch self {
        case .leaf(let entry): return entry.leafHash
        case .inner(let l, let r, _, _): return MerkleTree.nodeHash(l, r)
        }
    }
}

/// Where a user index keeps its nodes: in memory (`UserIndex`) or in a file beside the log.
/// Nodes are never changed once added, so every earlier root stays readable (a persistent tree).
public protocol UserIndexNodeStore {
    /// The node `ref` refers to (never 0).
    func node(_ ref: UInt64) throws -> UserIndexNode
    /// Adds `node`; returns its reference (never 0).
    mutating func add(_ node: UserIndexNode) throws -> UInt64
}
