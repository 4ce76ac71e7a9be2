/// The order in which a log's subtree hashes are stored in one append-only file of 32-byte
/// hashes: the order in which they become known (Crosby and Wallach, "Efficient Data Structures
/// for Tamper-Evident Logging", §3.3; the same numbering as Go's golang.org/x/mod/sumdb/tlog
/// `StoredHashIndex`).
///
/// Appending leaf n writes its leaf hash, then the hash of every perfect subtree that leaf
/// completes, lowest first: for n = 3 that is (0, 3), (1, 1), (2, 0). So the file for a log of
/// `size` leaves holds exactly `count(size:)` hashes, and the hash at (level, index) is the 32
/// bytes at offset `position(level:index:) × 32`.
public enum StoredHashLayout {
    /// The position of the hash of the perfect subtree (`level`, `index`): right after the hash
    /// of its last leaf, (index+1)·2^level - 1, and the `level - 1` lower subtrees that leaf
    /// completes before it.
    public static func position(level: Int, index: UInt64) -> UInt64 {
        // The completing leaf: the last leaf of the subtree.
        let lastLeaf = (index &+ 1) &<< UInt64(level) &- 1
        return leafPosition(lastLeaf) &+ UInt64(level)
    }

    /// The position of leaf n's hash: n + n/2 + n/4 + ... (each earlier leaf wrote itself and,
    /// in total, one parent for every two below).
    static func leafPosition(_ n: UInt64) -> UInt64 {
        var total: UInt64 = 0
        var m = n
        while m > 0 {
            total &+= m
            m >>= 1
        }
        return total
    }

    /// How many hashes a log of `size` leaves has stored: 2·size minus the number of one bits
    /// of size (each leaf adds itself and the subtrees it completes).
    public static func count(size: UInt64) -> UInt64 {
        size == 0 ? 0 : leafPosition(size - 1) &+ 1 &+ UInt64((size).trailingZeroBitCount)
    }
}
