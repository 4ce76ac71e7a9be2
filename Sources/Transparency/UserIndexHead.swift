import Cryptography

/// The head of the per-user completeness index as a checkpoint carries it.
public struct UserIndexHead: Sendable, Equatable {
    /// The number of index entries (users).
    public var entries: UInt64
    /// The Merkle root of the index.
    public var root: SHA256.Digest

    /// The head of an index of `entries` entries with root `root`.
    public init(entries: UInt64, root: SHA256.Digest) {
        self.entries = entries
        self.root = root
    }

    /// `user-smt <entries> <base64 root>`.
    public var extensionLine: String { "\(Checkpoint.userIndexKeyword) \(entries) \(Base64.encode(root.bytes))" }
}
