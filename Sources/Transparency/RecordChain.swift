import Cryptography

/// The chain of one user's records in log order: h0 = 32 zero bytes,
/// h(j+1) = SHA-256(h(j) || leafHash(j)), with the number of records folded in. The user index
/// commits to it, so a proof that drops, adds, reorders or changes one record of the user fails.
public struct RecordChain: Sendable, Equatable {
    /// The number of records folded in.
    public private(set) var count: UInt64 = 0
    /// The chain hash after them.
    public private(set) var hash: SHA256.Digest = .zero

    /// The chain of no records.
    public init() {}

    /// A chain resumed at `count` records with hash `hash` (e.g. read back from storage).
    public init(count: UInt64, hash: SHA256.Digest) {
        self.count = count
        self.hash = hash
    }

    /// Folds in the next record's Merkle leaf hash.
    public mutating func append(leafHash: SHA256.Digest) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        hash.append(to: &bytes)
        leafHash.append(to: &bytes)
        hash = SHA256.hash(bytes)
        count &+= 1
    }

    /// The chain of these leaf hashes.
    public init(leafHashes: some Sequence<SHA256.Digest>) {
        for leafHash in leafHashes { append(leafHash: leafHash) }
    }
}
