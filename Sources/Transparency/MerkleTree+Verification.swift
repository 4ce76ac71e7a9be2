import Cryptography

extension MerkleTree {
    /// Checks that `proof` shows the leaf with hash `leafHash` at `index` in the tree of `size`
    /// leaves whose root is `root` (RFC 9162 §2.1.3.2).
    public static func verifyInclusion(leafHash: SHA256.Digest, index: UInt64, size: UInt64, proof: [SHA256.Digest],
                                       root: SHA256.Digest) throws(MerkleProofError) {
        guard index < size else {
            throw MerkleProofError(.invalidArguments, "leaf index \(index) is not below the tree size \(size)")
        }
        var fn = index, sn = size - 1
        var r = leafHash
        for p in proof {
            guard sn != 0 else {
                throw MerkleProofError(.wrongLength, "inclusion proof for leaf \(index) of \(size) has \(proof.count) hashes: too many")
            }
            if fn & 1 == 1 || fn == sn {
                r = nodeHash(p, r)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                r = nodeHash(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        guard sn == 0 else {
            throw MerkleProofError(.wrongLength, "inclusion proof for leaf \(index) of \(size) has \(proof.count) hashes: too few")
        }
        guard r == root else {
            throw MerkleProofError(.rootMismatch, "inclusion proof for leaf \(index) of \(size) leads to root \(r), not \(root)")
        }
    }

    /// Checks that `proof` shows the tree of `oldSize` leaves with root `oldRoot` to be a prefix
    /// of the tree of `newSize` leaves with root `newRoot` (RFC 9162 §2.1.4.2).
    ///
    /// Equal sizes need an empty proof and equal roots. A proof from size 0 proves nothing and is
    /// refused, as transparency-dev/merkle does; a caller comparing with an empty checkpoint
    /// checks that checkpoint's root is `emptyRoot` instead.
    public static func verifyConsistency(oldSize: UInt64, newSize: UInt64, oldRoot: SHA256.Digest, newRoot: SHA256.Digest,
                                         proof: [SHA256.Digest]) throws(MerkleProofError) {
        guard oldSize <= newSize else {
            throw MerkleProofError(.invalidArguments, "the old tree size \(oldSize) is larger than the new size \(newSize)")
        }
        guard oldSize > 0 else {
            throw MerkleProofError(.invalidArguments, "a consistency proof from the empty tree proves nothing")
        }
        if oldSize == newSize {
            guard proof.isEmpty else {
                throw MerkleProofError(.wrongLength, "consistency proof between equal sizes \(oldSize) must be empty, has \(proof.count) hashes")
            }
            guard oldRoot == newRoot else {
                throw MerkleProofError(.rootMismatch, "trees of the same size \(oldSize) have different roots \(oldRoot) and \(newRoot)")
            }
            return
        }
        guard !proof.isEmpty else {
            throw MerkleProofError(.wrongLength, "consistency proof from size \(oldSize) to \(newSize) is empty")
        }
        var path = proof[...]
        // An exact power of two is its own subtree: the old root starts the path.
        if oldSize & (oldSize - 1) == 0 { path.insert(oldRoot, at: path.startIndex) }
        var fn = oldSize - 1, sn = newSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        guard let first = path.first else {
            throw MerkleProofError(.wrongLength, "consistency proof from size \(oldSize) to \(newSize) is empty")
        }
        var fr = first, sr = first
        for c in path.dropFirst() {
            guard sn != 0 else {
                throw MerkleProofError(.wrongLength, "consistency proof from size \(oldSize) to \(newSize) has \(proof.count) hashes: too many")
            }
            if fn & 1 == 1 || fn == sn {
                fr = nodeHash(c, fr)
                sr = nodeHash(c, sr)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                sr = nodeHash(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        guard sn == 0 else {
            throw MerkleProofError(.wrongLength, "consistency proof from size \(oldSize) to \(newSize) has \(proof.count) hashes: too few")
        }
        guard fr == oldRoot else {
            throw MerkleProofError(.rootMismatch, "consistency proof from size \(oldSize) to \(newSize) does not lead to the old root \(oldRoot)")
        }
        guard sr == newRoot else {
            throw MerkleProofError(.rootMismatch, "consistency proof from size \(oldSize) to \(newSize) does not lead to the new root \(newRoot)")
        }
    }
}
