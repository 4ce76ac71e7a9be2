import Cryptography
import Transparency

/// The per-user record chains while an index is built: each user's record count and
/// `RecordChain` hash over their leaf hashes in log order, keyed by SHA-256 of the user id.
struct UserChains {
    private(set) var chains: [SHA256.Digest: RecordChain] = [:]

    /// The chains of an earlier index's entries (to extend with the records after it).
    init(entries: [UserIndexEntry] = []) {
        chains.reserveCapacity(entries.count)
        for entry in entries { chains[entry.key] = RecordChain(count: entry.count, hash: entry.chainHash) }
    }

    /// Adds the next record of `user` (its leaf hash in the log's tree).
    mutating func append(user: String, leafHash: SHA256.Digest) {
        chains[UserIndexEntry.key(user: user), default: RecordChain()].append(leafHash: leafHash)
    }

    /// The index entries, sorted by key (bytewise).
    func sortedEntries() -> [UserIndexEntry] {
        var keyed: [(order: SortKey, entry: UserIndexEntry)] = []
        keyed.reserveCapacity(chains.count)
        for (key, chain) in chains {
            keyed.append((SortKey(key.bytes), UserIndexEntry(key: key, count: chain.count, chainHash: chain.hash)))
        }
        keyed.sort { $0.order < $1.order }
        return keyed.map(\.entry)
    }

    /// A digest as four big-endian words: their order is the bytes' order.
    struct SortKey: Comparable {
        var a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(_ bytes: [UInt8]) {
            func word(_ o: Int) -> UInt64 { (o..<(o + 8)).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[$1]) } }
            a = word(0); b = word(8); c = word(16); d = word(24)
        }

        static func < (l: SortKey, r: SortKey) -> Bool { (l.a, l.b, l.c, l.d) < (r.a, r.b, r.c, r.d) }
    }
}
