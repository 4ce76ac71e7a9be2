import Cryptography

/// The Merkle tree of RFC 9162 §2.1 (the same as RFC 6962 §2.1) over a log's records, with
/// SHA-256: leaf hash SHA-256(0x00 || data), interior node SHA-256(0x01 || left || right), the
/// root of the empty tree SHA-256 of nothing.
///
/// Proofs are generated from `StoredHashes` (perfect-subtree hashes), so a tree stored as a file
/// answers an inclusion or consistency proof with O(log n) reads; verification
/// (`MerkleTree+Verification.swift`) follows RFC 9162 §2.1.3.2 and §2.1.4.2.
public enum MerkleTree {
    /// The hash of a leaf holding `data`.
    public static func leafHash(_ data: some Collection<UInt8>) -> SHA256.Digest {
        var bytes: [UInt8] = [0x00]
        bytes.reserveCapacity(data.count + 1)
        bytes.append(contentsOf: data)
        return SHA256.hash(bytes)
    }

    /// The hash of an interior node.
    public static func nodeHash(_ left: SHA256.Digest, _ right: SHA256.Digest) -> SHA256.Digest {
        var bytes: [UInt8] = [0x01]
        bytes.reserveCapacity(65)
        left.append(to: &bytes)
        right.append(to: &bytes)
        return SHA256.hash(bytes)
    }

    /// The root of the empty tree: SHA-256 of the empty string.
    public static let emptyRoot = SHA256.hash([UInt8]())

    /// The root of the tree of the first `size` leaves (O(log size) reads).
    public static func root(size: UInt64, hashes: some StoredHashes) throws -> SHA256.Digest {
        size == 0 ? emptyRoot : try subtreeHash(from: 0, to: size, hashes)
    }

    /// The root of the tree over `leafHashes` (all in memory).
    public static func root(leafHashes: [SHA256.Digest]) -> SHA256.Digest {
        guard !leafHashes.isEmpty else { return emptyRoot }
        var level = leafHashes
        // Pairs are hashed left to right; an odd last node moves up unchanged, which gives
        // RFC 9162's split at the largest power of two below the size.
        while level.count > 1 {
            var next: [SHA256.Digest] = []
            next.reserveCapacity((level.count + 1) / 2)
            var i = 0
            while i + 1 < level.count {
                next.append(nodeHash(level[i], level[i + 1]))
                i += 2
            }
            if i < level.count { next.append(level[i]) }
            level = next
        }
        return level[0]
    }

    /// The inclusion proof (audit path) of leaf `index` in the tree of `size` leaves:
    /// PATH(index, D[0:size]) of RFC 9162 §2.1.3.1, leaf-side first.
    public static func inclusionProof(index: UInt64, size: UInt64, hashes: some StoredHashes) throws -> [SHA256.Digest] {
        guard index < size else {
            throw MerkleProofError(.invalidArguments, "leaf index \(index) is not below the tree size \(size)")
        }
        var lo: UInt64 = 0, hi = size
        // Walk down from the root; each step's sibling goes in front of the ones above it.
        var siblings: [SHA256.Digest] = []
        while hi - lo > 1 {
            let k = largestPowerOfTwo(below: hi - lo)
            if index < lo + k {
                siblings.append(try subtreeHash(from: lo + k, to: hi, hashes))
                hi = lo + k
            } else {
                siblings.append(try subtreeHash(from: lo, to: lo + k, hashes))
                lo += k
            }
        }
        return siblings.reversed()
    }

    /// The consistency proof between the trees of `oldSize` and `newSize` leaves:
    /// PROOF(oldSize, D[0:newSize]) of RFC 9162 §2.1.4.1. Empty when the sizes are equal.
    public static func consistencyProof(oldSize: UInt64, newSize: UInt64, hashes: some StoredHashes) throws -> [SHA256.Digest] {
        guard oldSize > 0, oldSize <= newSize else {
            throw MerkleProofError(.invalidArguments, "no consistency proof from size \(oldSize) to size \(newSize): need 0 < old ≤ new")
        }
        // SUBPROOF(m, D[lo:hi], b), unrolled: each step adds one node after the deeper ones.
        var nodes: [SHA256.Digest] = []
        var m = oldSize, lo: UInt64 = 0, hi = newSize
        var wholeOldTree = true
        while m != hi - lo {
            let k = largestPowerOfTwo(below: hi - lo)
            if m <= k {
                nodes.append(try subtreeHash(from: lo + k, to: hi, hashes))
                hi = lo + k
            } else {
                nodes.append(try subtreeHash(from: lo, to: lo + k, hashes))
                m -= k
                lo += k
                wholeOldTree = false
            }
        }
        if !wholeOldTree { nodes.append(try subtreeHash(from: lo, to: hi, hashes)) }
        return nodes.reversed()
    }

    /// MTH(D[lo:hi]) for 0 ≤ lo < hi: one stored hash when the range is a perfect aligned
    /// subtree, else the left perfect part and the rest, recursively (at most log n reads).
    static func subtreeHash(from lo: UInt64, to hi: UInt64, _ hashes: some StoredHashes) throws -> SHA256.Digest {
        let width = hi - lo
        if width & (width - 1) == 0 && lo % width == 0 {
            let level = width.trailingZeroBitCount
            return try hashes.hash(level: level, index: lo >> UInt64(level))
        }
        let k = largestPowerOfTwo(below: width)
        return nodeHash(try subtreeHash(from: lo, to: lo + k, hashes), try subtreeHash(from: lo + k, to: hi, hashes))
    }

    /// The largest power of two strictly below `n` (n ≥ 2).
    static func largestPowerOfTwo(below n: UInt64) -> UInt64 {
        UInt64(1) << UInt64(63 - (n - 1).leadingZeroBitCount)
    }
}
