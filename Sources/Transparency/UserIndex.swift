import Cryptography

/// The per-user completeness index: a Merkle tree (RFC 9162 hashing) over one entry per user,
/// sorted by SHA-256(userId). Its root and size go into the checkpoint's `user-index` line; an
/// entry's inclusion proves a user's record count and chain, and two adjacent entries around
/// SHA-256(userId) prove the user has no records.
public struct UserIndex: Sendable {
    /// The entries, strictly increasing by key.
    public let entries: [UserIndexEntry]
    let hashes: InMemoryHashes
    /// The size and root for the checkpoint.
    public let head: UserIndexHead

    /// The index over `entries`, which must be sorted by key with no key twice.
    public init(entries: [UserIndexEntry]) throws(UserIndexError) {
        for i in entries.indices.dropFirst() where !SHA256.Digest.precedes(entries[i - 1].key, entries[i].key) {
            throw UserIndexError("entries \(i - 1) and \(i) are not in strictly increasing key order")
        }
        self.entries = entries
        hashes = InMemoryHashes(leafHashes: entries.map(\.leafHash))
        head = UserIndexHead(entries: UInt64(entries.count), root: Self.root(hashes))
    }

    /// The index of users and their chains, in any order (sorted here).
    public init(users: [(user: String, chain: RecordChain)]) throws(UserIndexError) {
        let keyed = users.map { user in
            let entry = UserIndexEntry(user: user.user, chain: user.chain)
            return (key: entry.key.bytes, entry: entry)
        }
        try self.init(entries: keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.entry))
    }

    /// The root of the tree held in `hashes` (O(log n) lookups of hashes that are all there).
    static func root(_ hashes: InMemoryHashes) -> SHA256.Digest {
        do {
            return try MerkleTree.root(size: hashes.size, hashes: hashes)
        } catch {
            // Every perfect subtree of the first `size` leaves is in `hashes`; recompute if not.
            return MerkleTree.root(leafHashes: hashes.levels.first ?? [])
        }
    }

    /// The proof of `user`'s entry, or of its absence.
    public func proof(user: String) throws -> UserIndexProof {
        let key = UserIndexEntry.key(user: user)
        // The first entry whose key is not below the user's.
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if SHA256.Digest.precedes(entries[mid].key, key) { lo = mid + 1 } else { hi = mid }
        }
        let size = UInt64(entries.count)
        if lo < entries.count && entries[lo].key == key {
            return UserIndexProof(entries: size, membership: .present(try entryProof(lo)))
        }
        return UserIndexProof(entries: size, membership: .absent(left: lo > 0 ? try entryProof(lo - 1) : nil,
                                                                 right: lo < entries.count ? try entryProof(lo) : nil))
    }

    func entryProof(_ position: Int) throws -> UserIndexProof.EntryProof {
        UserIndexProof.EntryProof(position: UInt64(position), entry: entries[position],
                                  inclusion: try MerkleTree.inclusionProof(index: UInt64(position), size: UInt64(entries.count), hashes: hashes))
    }
}
