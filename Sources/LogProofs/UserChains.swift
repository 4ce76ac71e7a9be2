import Cryptography
import Transparency

/// The record chains of the users touched since an indexed size, while the index is brought
/// forward: each user's count and `RecordChain` hash, keyed by SHA-256 of the user id, starting
/// from what the earlier index holds for them.
struct UserChains {
    private(set) var chains: [SHA256.Digest: RecordChain] = [:]

    /// Adds the next record of `user` (its leaf hash in the log's tree); `earlier` gives the
    /// user's entry in the index being extended, asked once per user.
    mutating func append(user: String, leafHash: SHA256.Digest, earlier: (SHA256.Digest) throws -> UserIndexEntry?) rethrows {
        let key = UserIndexEntry.key(user: user)
        if chains[key] == nil {
            chains[key] = try earlier(key).map { RecordChain(count: $0.count, hash: $0.chainHash) } ?? RecordChain()
        }
        chains[key]?.append(leafHash: leafHash)
    }

    /// The changed entries, sorted by key (bytewise).
    func sortedEntries() -> [UserIndexEntry] {
        chains.map { UserIndexEntry(key: $0.key, count: $0.value.count, chainHash: $0.value.hash) }
            .sorted { SHA256.Digest.precedesBytewise($0.key, $1.key) }
    }
}
