import Cryptography

/// Every perfect-subtree hash of a tree, level by level, in memory: the simple `StoredHashes`
/// for trees that fit (the user index; tests).
public struct InMemoryHashes: StoredHashes, Sendable {
    /// levels[k][i] is the hash of the perfect subtree (k, i).
    public private(set) var levels: [[SHA256.Digest]]

    /// The number of leaves.
    public var size: UInt64 { UInt64(levels.first?.count ?? 0) }

    /// The hashes of the tree over `leafHashes`.
    public init(leafHashes: [SHA256.Digest]) {
        levels = [leafHashes]
        while let below = levels.last, below.count > 1 {
            var level: [SHA256.Digest] = []
            level.reserveCapacity(below.count / 2)
            for i in stride(from: 0, to: below.count - 1, by: 2) { level.append(MerkleTree.nodeHash(below[i], below[i + 1])) }
            levels.append(level)
        }
    }

    /// The hashes of the tree whose leaves hold `records`.
    public init(records: [[UInt8]]) {
        self.init(leafHashes: records.map { MerkleTree.leafHash($0) })
    }

    /// Adds one leaf hash, completing the subtrees it closes.
    public mutating func append(leafHash: SHA256.Digest) {
        if levels.isEmpty { levels = [[]] }
        levels[0].append(leafHash)
        var level = 0
        while levels[level].count % 2 == 0 {
            let count = levels[level].count
            let parent = MerkleTree.nodeHash(levels[level][count - 2], levels[level][count - 1])
            if levels.count == level + 1 { levels.append([]) }
            levels[level + 1].append(parent)
            level += 1
        }
    }

    /// levels[level][index]; throws `MissingStoredHash` past the end.
    public func hash(level: Int, index: UInt64) throws -> SHA256.Digest {
        guard level >= 0, level < levels.count, index < UInt64(levels[level].count) else {
            throw MissingStoredHash(level: level, index: index)
        }
        return levels[level][Int(index)]
    }
}
