import Testing
import Cryptography
@testable import Transparency

/// Seeded properties of proofs over random trees.
@Suite struct MerkleProperties {
    static func randomLeaves(_ count: Int, _ random: inout SplitMix64) -> [[UInt8]] {
        (0..<count).map { _ in (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) } }
    }

    @Test("for random m ≤ n every inclusion and consistency proof verifies; another leaf, index, size or root does not")
    func proofsVerifyAndForgeriesFail() throws {
        let seed: UInt64 = 0x6962_9162
        var random = SplitMix64(seed: seed)
        let leaves = Self.randomLeaves(130, &random)
        let leafHashes = leaves.map { MerkleTree.leafHash($0) }
        let stored = InMemoryHashes(leafHashes: leafHashes)
        let roots = (0...leaves.count).map { MerkleTree.root(leafHashes: Array(leafHashes[..<$0])) }
        for round in 0..<150 {
            let n = UInt64.random(in: 1...UInt64(leaves.count), using: &random)
            let m = UInt64.random(in: 1...n, using: &random)
            let context = "seed \(seed) round \(round): m \(m) n \(n)"
            // Inclusion of a random leaf i < n.
            let i = UInt64.random(in: 0..<n, using: &random)
            let path = try MerkleTree.inclusionProof(index: i, size: n, hashes: stored)
            #expect(succeeds { try MerkleTree.verifyInclusion(leafHash: leafHashes[Int(i)], index: i, size: n, proof: path, root: roots[Int(n)]) }, "\(context) leaf \(i)")
            let other = (i + 1) % n
            if other != i && leafHashes[Int(other)] != leafHashes[Int(i)] {
                #expect(!succeeds { try MerkleTree.verifyInclusion(leafHash: leafHashes[Int(other)], index: i, size: n, proof: path, root: roots[Int(n)]) }, "\(context) other leaf")
                #expect(!succeeds { try MerkleTree.verifyInclusion(leafHash: leafHashes[Int(i)], index: other, size: n, proof: path, root: roots[Int(n)]) }, "\(context) other index")
            }
            if n < UInt64(leaves.count) {
                // (A path never binds the size alone: the signed checkpoint pairs size and root.)
                #expect(!succeeds { try MerkleTree.verifyInclusion(leafHash: leafHashes[Int(i)], index: i, size: n + 1, proof: path, root: roots[Int(n) + 1]) }, "\(context) other size")
                #expect(!succeeds { try MerkleTree.verifyInclusion(leafHash: leafHashes[Int(i)], index: i, size: n, proof: path, root: roots[Int(n) + 1]) }, "\(context) other root")
            }
            if !path.isEmpty {
                #expect(!succeeds { try MerkleTree.verifyInclusion(leafHash: leafHashes[Int(i)], index: i, size: n, proof: Array(path.dropLast()), root: roots[Int(n)]) }, "\(context) short path")
            }
            #expect(!succeeds { try MerkleTree.verifyInclusion(leafHash: leafHashes[Int(i)], index: i, size: n, proof: path + [roots[1]], root: roots[Int(n)]) }, "\(context) long path")

            // Consistency from m to n.
            let proof = try MerkleTree.consistencyProof(oldSize: m, newSize: n, hashes: stored)
            #expect(succeeds { try MerkleTree.verifyConsistency(oldSize: m, newSize: n, oldRoot: roots[Int(m)], newRoot: roots[Int(n)], proof: proof) }, "\(context)")
            if m < n {
                #expect(!succeeds { try MerkleTree.verifyConsistency(oldSize: m, newSize: n, oldRoot: roots[Int(m) - 1 == 0 ? Int(n) : Int(m) - 1], newRoot: roots[Int(n)], proof: proof) }, "\(context) other old root")
                #expect(!succeeds { try MerkleTree.verifyConsistency(oldSize: m, newSize: n, oldRoot: roots[Int(m)], newRoot: roots[Int(n) - 1], proof: proof) }, "\(context) other new root")
                #expect(!succeeds { try MerkleTree.verifyConsistency(oldSize: m + 1, newSize: n, oldRoot: roots[Int(m) + 1], newRoot: roots[Int(n)], proof: proof) }, "\(context) other old size")
                if n < UInt64(leaves.count) {
                    #expect(!succeeds { try MerkleTree.verifyConsistency(oldSize: m, newSize: n + 1, oldRoot: roots[Int(m)], newRoot: roots[Int(n) + 1], proof: proof) }, "\(context) other new size")
                }
                // A rewritten log: the same sizes over a changed leaf before m.
                var rewritten = leafHashes
                rewritten[Int(UInt64.random(in: 0..<m, using: &random))] = MerkleTree.leafHash([0xEE, 0xEE])
                let rewrittenRoot = MerkleTree.root(leafHashes: Array(rewritten[..<Int(n)]))
                let rewrittenProof = try MerkleTree.consistencyProof(oldSize: m, newSize: n, hashes: InMemoryHashes(leafHashes: rewritten))
                #expect(!succeeds { try MerkleTree.verifyConsistency(oldSize: m, newSize: n, oldRoot: roots[Int(m)], newRoot: rewrittenRoot, proof: rewrittenProof) }, "\(context) rewritten log")
            }
        }
    }

    @Test("the accumulator's stored hashes fill the layout in order, and proofs from them equal proofs from memory")
    func accumulatorAndLayout() throws {
        let seed: UInt64 = 0xF1A7
        var random = SplitMix64(seed: seed)
        let leafHashes = Self.randomLeaves(70, &random).map { MerkleTree.leafHash($0) }
        var accumulator = MerkleAccumulator()
        var flat = FlatStoredHashes()
        var memory = InMemoryHashes(leafHashes: [])
        for (n, leafHash) in leafHashes.enumerated() {
            let stored = accumulator.append(leafHash: leafHash)
            memory.append(leafHash: leafHash)
            for (k, entry) in stored.enumerated() {
                #expect(entry.position == StoredHashLayout.position(level: 0, index: UInt64(n)) + UInt64(k), "seed \(seed) leaf \(n)")
                #expect(entry.position == UInt64(flat.hashes.count) + UInt64(k), "seed \(seed) leaf \(n)")
                #expect(try memory.hash(level: entry.level, index: entry.index) == entry.hash, "seed \(seed) leaf \(n)")
            }
            flat.append(stored)
            let size = UInt64(n + 1)
            #expect(UInt64(flat.hashes.count) == StoredHashLayout.count(size: size))
            #expect(StoredHashLayout.count(size: size) == 2 * size - UInt64(size.nonzeroBitCount))
            #expect(accumulator.root == MerkleTree.root(leafHashes: Array(leafHashes[...n])))
            #expect(try MerkleTree.root(size: size, hashes: flat) == accumulator.root)
            #expect(try MerkleAccumulator(size: size, hashes: flat) == accumulator, "resumed at size \(size)")
        }
        for round in 0..<60 {
            let n = UInt64.random(in: 1...UInt64(leafHashes.count), using: &random)
            let m = UInt64.random(in: 1...n, using: &random)
            let i = UInt64.random(in: 0..<n, using: &random)
            #expect(try MerkleTree.inclusionProof(index: i, size: n, hashes: flat) == MerkleTree.inclusionProof(index: i, size: n, hashes: memory), "seed \(seed) round \(round)")
            #expect(try MerkleTree.consistencyProof(oldSize: m, newSize: n, hashes: flat) == MerkleTree.consistencyProof(oldSize: m, newSize: n, hashes: memory), "seed \(seed) round \(round)")
        }
    }

    /// Counts the reads a proof makes: O(log n) however large the tree.
    final class CountingHashes: StoredHashes {
        let inner: InMemoryHashes
        var reads = 0
        init(_ inner: InMemoryHashes) { self.inner = inner }
        func hash(level: Int, index: UInt64) throws -> SHA256.Digest {
            reads += 1
            return try inner.hash(level: level, index: index)
        }
    }

    @Test("a proof in a tree of 1000 leaves reads at most 2·log2(n) stored hashes")
    func logarithmicReads() throws {
        let counting = CountingHashes(InMemoryHashes(records: (0..<1000).map { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }))
        for (i, n) in [(0, 1000), (999, 1000), (511, 1000), (513, 999), (7, 777)] as [(UInt64, UInt64)] {
            counting.reads = 0
            _ = try MerkleTree.inclusionProof(index: i, size: n, hashes: counting)
            #expect(counting.reads <= 20, "inclusion \(i) of \(n): \(counting.reads) reads")
            counting.reads = 0
            _ = try MerkleTree.consistencyProof(oldSize: i + 1, newSize: n, hashes: counting)
            #expect(counting.reads <= 20, "consistency \(i + 1) to \(n): \(counting.reads) reads")
        }
    }

    @Test("the layout numbering is tlog's: leaf 0, leaf 1, node (1,0), leaf 2, leaf 3, (1,1), (2,0), ...")
    func layoutNumbering() {
        let order: [(Int, UInt64)] = [(0, 0), (0, 1), (1, 0), (0, 2), (0, 3), (1, 1), (2, 0), (0, 4), (0, 5), (1, 2), (0, 6), (0, 7), (1, 3), (2, 1), (3, 0)]
        for (position, coordinates) in order.enumerated() {
            #expect(StoredHashLayout.position(level: coordinates.0, index: coordinates.1) == UInt64(position))
        }
        #expect(StoredHashLayout.count(size: 0) == 0)
        #expect(StoredHashLayout.count(size: 8) == 15)
    }
}
