import Cryptography

/// The per-user completeness index held in memory: the sparse Merkle tree of `UserIndexTree`
/// over one entry per user, keyed by SHA-256(userId). Its root and size go into the
/// checkpoint's user-smt line; a path to an entry proves a user's record count and chain, a
/// path to an empty subtree or to another key proves the user has no records.
///
/// The log keeps the same tree in a file (`LogProofs`); this one serves tests, benchmarks and
/// anyone recomputing the index from an export.
public struct UserIndex: Sendable {
    /// The nodes, in the order they were added (reference i + 1 is `nodes[i]`).
    public struct Nodes: UserIndexNodeStore, Sendable {
        /// Every node added, oldest first.
        public private(set) var nodes: [UserIndexNode] = []

        /// No nodes.
        public init() {}

        /// The node `ref` refers to; throws for a reference never handed out.
        public func node(_ ref: UInt64) throws -> UserIndexNode {
            guard ref > 0, ref <= UInt64(nodes.count) else { throw UserIndexError("no node \(ref)") }
            return nodes[Int(ref - 1)]
        }

        /// Adds `node`; its reference is the number of nodes then.
        public mutating func add(_ node: UserIndexNode) throws -> UInt64 {
            nodes.append(node)
            return UInt64(nodes.count)
        }
    }

    /// The nodes of this and every earlier version of the index.
    public private(set) var nodes = Nodes()
    /// The root node's reference (0: the empty index).
    public private(set) var rootRef: UInt64 = 0
    /// The size and root for the checkpoint.
    public private(set) var head = UserIndexHead(entries: 0, root: UserIndexTree.emptyHash)

    /// The empty index.
    public init() {}

    /// The index over `entries`, which must be sorted by key with no key twice.
    public init(entries: [UserIndexEntry]) throws(UserIndexError) {
        do {
            try update(entries)
        } catch let error as UserIndexError {
            throw error
        } catch {
            throw UserIndexError("\(error)")
        }
    }

    /// The index of users and their chains, in any order (sorted here).
    public init(users: [(user: String, chain: RecordChain)]) throws(UserIndexError) {
        try self.init(entries: users.map { UserIndexEntry(user: $0.user, chain: $0.chain) }.sorted { SHA256.Digest.precedes($0.key, $1.key) })
    }

    /// Puts `changes` (sorted by key, no key twice) into the index, replacing entries of the same key.
    public mutating func update(_ changes: [UserIndexEntry]) throws {
        let (root, added) = try UserIndexTree.update(root: rootRef, changes: changes, in: &nodes)
        rootRef = root
        head = UserIndexHead(entries: head.entries + added, root: try UserIndexTree.hash(root, in: nodes))
    }

    /// The entry of `user`, if the index has one.
    public func entry(user: String) throws -> UserIndexEntry? {
        try UserIndexTree.lookup(UserIndexEntry.key(user: user), root: rootRef, in: nodes)
    }

    /// The proof of `user`'s entry, or of its absence.
    public func proof(user: String) throws -> UserIndexProof {
        try UserIndexTree.proof(user: user, root: rootRef, entries: head.entries, in: nodes)
    }
}
