import Cryptography

/// A log's Merkle tree kept as its right frontier alone (the roots of the perfect subtrees that
/// make up the first `size` leaves, largest first): O(log n) memory, the root at any size, and
/// for each appended leaf the new hashes to store so proofs can be made later.
public struct MerkleAccumulator: Sendable, Equatable {
    /// The number of leaves appended.
    public private(set) var size: UInt64 = 0
    /// The frontier: one perfect-subtree hash per one bit of `size`, highest level first.
    public private(set) var frontier: [SHA256.Digest] = []

    /// An empty tree.
    public init() {}

    /// The accumulator of a stored tree of `size` leaves, its frontier read from `hashes`
    /// (one read per one bit of size).
    public init(size: UInt64, hashes: some StoredHashes) throws {
        var start: UInt64 = 0
        for level in (0..<64).reversed() where size >> UInt64(level) & 1 == 1 {
            frontier.append(try hashes.hash(level: level, index: start >> UInt64(level)))
            start += UInt64(1) << UInt64(level)
        }
        self.size = size
    }

    /// Appends a leaf hash and returns the hashes that became known, in `StoredHashLayout`
    /// order: the leaf hash, then each perfect subtree it completes, lowest first.
    @discardableResult
    public mutating func append(leafHash: SHA256.Digest) -> [StoredHash] {
        let index = size
        var stored = [StoredHash(level: 0, index: index, hash: leafHash)]
        var hash = leafHash
        var level = 0
        // Every trailing one bit of the old size is a frontier subtree this leaf completes.
        while index >> UInt64(level) & 1 == 1, let left = frontier.popLast() {
            hash = MerkleTree.nodeHash(left, hash)
            level += 1
            stored.append(StoredHash(level: level, index: index >> UInt64(level), hash: hash))
        }
        frontier.append(hash)
        size += 1
        return stored
    }

    /// Appends the leaf holding `data`.
    @discardableResult
    public mutating func append(leaf data: some Collection<UInt8>) -> [StoredHash] {
        append(leafHash: MerkleTree.leafHash(data))
    }

    /// The root of the tree of `size` leaves (RFC 9162 §2.1.1).
    public var root: SHA256.Digest {
        guard var hash = frontier.last else { return MerkleTree.emptyRoot }
        for left in frontier.dropLast().reversed() { hash = MerkleTree.nodeHash(left, hash) }
        return hash
    }
}
