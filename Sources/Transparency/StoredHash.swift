import Cryptography

/// One stored hash with its coordinates: what `MerkleAccumulator.append` hands back for writing.
public struct StoredHash: Sendable, Equatable {
    /// The subtree's height: 0 for a leaf hash.
    public var level: Int
    /// The subtree's position among those of its level.
    public var index: UInt64
    /// The subtree's Merkle hash.
    public var hash: SHA256.Digest

    /// The hash `hash` of subtree (`level`, `index`).
    public init(level: Int, index: UInt64, hash: SHA256.Digest) {
        self.level = level
        self.index = index
        self.hash = hash
    }

    /// Where this hash goes in a file laid out by `StoredHashLayout`.
    public var position: UInt64 { StoredHashLayout.position(level: level, index: index) }
}
