import Cryptography

/// Stored hashes as one flat list in `StoredHashLayout` order: the contents of a hash file read
/// whole. A file-backed `StoredHashes` answers the same way with one 32-byte read at
/// `StoredHashLayout.position(level:index:) × 32`.
public struct FlatStoredHashes: StoredHashes, Sendable {
    /// The hashes in layout order.
    public private(set) var hashes: [SHA256.Digest]

    /// Hashes already in layout order (e.g. a hash file read whole).
    public init(hashes: [SHA256.Digest] = []) { self.hashes = hashes }

    /// Appends what `MerkleAccumulator.append` returned (already in layout order).
    public mutating func append(_ stored: [StoredHash]) {
        for entry in stored { hashes.append(entry.hash) }
    }

    /// The hash at `StoredHashLayout.position(level:index:)`; throws `MissingStoredHash` past the end.
    public func hash(level: Int, index: UInt64) throws -> SHA256.Digest {
        guard level >= 0, level < 64, index < UInt64.max >> UInt64(level) else {
            throw MissingStoredHash(level: level, index: index)
        }
        let position = StoredHashLayout.position(level: level, index: index)
        guard position < UInt64(hashes.count) else { throw MissingStoredHash(level: level, index: index) }
        return hashes[Int(position)]
    }
}
