import Cryptography

/// One user's entry in the completeness index: SHA-256(userId) || count (UInt64 big-endian) ||
/// chain hash; 72 bytes, the leaf data of the index's Merkle tree.
public struct UserIndexEntry: Sendable, Equatable {
    /// SHA-256 of the user id's UTF-8 bytes: the sort key.
    public var key: SHA256.Digest
    /// How many records of the user the log holds.
    public var count: UInt64
    /// The user's `RecordChain` hash over those records.
    public var chainHash: SHA256.Digest

    /// The size of the encoded entry.
    public static let encodedSize = 72

    /// The entry of the user whose key is `key`.
    public init(key: SHA256.Digest, count: UInt64, chainHash: SHA256.Digest) {
        self.key = key
        self.count = count
        self.chainHash = chainHash
    }

    /// The entry of `user` with its chain.
    public init(user: String, chain: RecordChain) {
        self.init(key: Self.key(user: user), count: chain.count, chainHash: chain.hash)
    }

    /// SHA-256 of the user id's UTF-8 bytes.
    public static func key(user: String) -> SHA256.Digest { SHA256.hash(Array(user.utf8)) }

    /// key || count big-endian || chain hash.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.encodedSize)
        key.append(to: &out)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: count >> UInt64(shift))) }
        chainHash.append(to: &out)
        return out
    }

    /// The entry's leaf hash in the index tree.
    public var leafHash: SHA256.Digest { MerkleTree.leafHash(bytes) }
}

extension SHA256.Digest {
    /// Byte-wise (big-endian) order of digests: the order of the user index.
    static func precedes(_ a: SHA256.Digest, _ b: SHA256.Digest) -> Bool {
        precedesBytewise(a, b)
    }
}
