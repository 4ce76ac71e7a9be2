import Cryptography

/// Where proof generation reads the log's tree: the hash of the perfect subtree at `level`,
/// `index`, which covers leaves [index·2^level, (index+1)·2^level). Level 0 holds the leaf hashes.
///
/// A file laid out by `StoredHashLayout` answers each call with one 32-byte read, so an inclusion
/// or consistency proof costs O(log n) reads. Implementations throw when the hash is not stored
/// (beyond the log's end) or cannot be read.
public protocol StoredHashes {
    /// The hash of the perfect subtree at (`level`, `index`).
    func hash(level: Int, index: UInt64) throws -> SHA256.Digest
}

/// A stored hash that was asked for but is not there.
public struct MissingStoredHash: Error, Sendable, Equatable, CustomStringConvertible {
    /// The missing hash's level.
    public var level: Int
    /// The missing hash's index within its level.
    public var index: UInt64
    public var description: String { "no stored hash at level \(level), index \(index): beyond the stored tree" }
}
