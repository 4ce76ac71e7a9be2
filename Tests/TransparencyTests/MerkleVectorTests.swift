import Foundation
import Testing
import Cryptography
@testable import Transparency

/// The RFC 6962 / RFC 9162 example tree of eight leaves, with the roots and proofs published in
/// github.com/transparency-dev/merkle proof/verify_test.go (at commit 022f84cb1f26, the version
/// before its vectors moved to testdata/; originally certificate-transparency's merkle tests).
@Suite struct MerkleVectors {
    static let leaves: [[UInt8]] = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                    "606162636465666768696a6b6c6d6e6f"].map { bytes(hex: $0) ?? [] }

    static let roots = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ]

    /// (1-based leaf, tree size, audit path).
    static let inclusionProofs: [(leaf: UInt64, size: UInt64, proof: [String])] = [
        (1, 1, []),
        (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
        (6, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
        (3, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
        (2, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
    ]

    static let consistencyProofs: [(from: UInt64, to: UInt64, proof: [String])] = [
        (1, 1, []),
        (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
        (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
        (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
        (6, 7, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    ]

    static func hashes(_ list: [String]) -> [SHA256.Digest] { list.compactMap { digest($0) } }

    @Test("the empty tree's root is SHA-256 of nothing")
    func emptyRoot() {
        #expect(MerkleTree.emptyRoot.description == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(MerkleTree.root(leafHashes: []) == MerkleTree.emptyRoot)
        #expect(MerkleAccumulator().root == MerkleTree.emptyRoot)
    }

    @Test("roots of sizes 1 to 8 match, from memory, from stored hashes and from the accumulator")
    func roots() throws {
        let leafHashes = Self.leaves.map { MerkleTree.leafHash($0) }
        let stored = InMemoryHashes(leafHashes: leafHashes)
        var accumulator = MerkleAccumulator()
        for size in 1...8 {
            accumulator.append(leafHash: leafHashes[size - 1])
            let expected = try #require(digest(Self.roots[size - 1]))
            #expect(MerkleTree.root(leafHashes: Array(leafHashes[..<size])) == expected, "size \(size)")
            #expect(try MerkleTree.root(size: UInt64(size), hashes: stored) == expected, "size \(size)")
            #expect(accumulator.root == expected, "size \(size)")
        }
    }

    @Test("the published inclusion proofs are generated exactly and verify")
    func inclusion() throws {
        let stored = InMemoryHashes(records: Self.leaves)
        for vector in Self.inclusionProofs {
            let index = vector.leaf - 1
            let expected = Self.hashes(vector.proof)
            #expect(expected.count == vector.proof.count)
            let generated = try MerkleTree.inclusionProof(index: index, size: vector.size, hashes: stored)
            #expect(generated == expected, "leaf \(index) of \(vector.size)")
            let root = try #require(digest(Self.roots[Int(vector.size) - 1]))
            #expect(throws: Never.self) {
                try MerkleTree.verifyInclusion(leafHash: MerkleTree.leafHash(Self.leaves[Int(index)]), index: index, size: vector.size,
                                               proof: expected, root: root)
            }
        }
    }

    @Test("the published consistency proofs are generated exactly and verify")
    func consistency() throws {
        let stored = InMemoryHashes(records: Self.leaves)
        for vector in Self.consistencyProofs {
            let expected = Self.hashes(vector.proof)
            let generated = try MerkleTree.consistencyProof(oldSize: vector.from, newSize: vector.to, hashes: stored)
            #expect(generated == expected, "\(vector.from) to \(vector.to)")
            let oldRoot = try #require(digest(Self.roots[Int(vector.from) - 1]))
            let newRoot = try #require(digest(Self.roots[Int(vector.to) - 1]))
            #expect(throws: Never.self) {
                try MerkleTree.verifyConsistency(oldSize: vector.from, newSize: vector.to, oldRoot: oldRoot, newRoot: newRoot, proof: expected)
            }
        }
    }

    struct InclusionProbe: Decodable {
        var leafIdx: UInt64; var treeSize: UInt64; var root: String?; var leafHash: String?
        var proof: [String]?; var desc: String; var wantErr: Bool; var file: String
    }
    struct ConsistencyProbe: Decodable {
        var size1: UInt64; var size2: UInt64; var root1: String?; var root2: String?
        var proof: [String]?; var desc: String; var wantErr: Bool; var file: String
    }
    struct Probes<P: Decodable>: Decodable { var probes: [P] }

    /// A probe's hash list; nil when one element is not a 32-byte hash, which our typed API
    /// cannot even express (the probe must then be one that is refused).
    static func probeHashes(_ list: [String]?) -> [SHA256.Digest]? {
        var out: [SHA256.Digest] = []
        for text in list ?? [] {
            guard let hash = digest(base64: text) else { return nil }
            out.append(hash)
        }
        return out
    }

    @Test("transparency-dev/merkle's inclusion probes: happy paths verify, every corrupted one is refused")
    func inclusionProbes() throws {
        let file = try JSONDecoder().decode(Probes<InclusionProbe>.self, from: resource("merkle_inclusion_probes.json"))
        #expect(file.probes.count == 98)
        for probe in file.probes {
            var accepted = false
            if let root = probe.root.flatMap({ digest(base64: $0) }), let leaf = probe.leafHash.flatMap({ digest(base64: $0) }),
               let proof = Self.probeHashes(probe.proof) {
                accepted = succeeds { try MerkleTree.verifyInclusion(leafHash: leaf, index: probe.leafIdx, size: probe.treeSize, proof: proof, root: root) }
            }
            #expect(accepted == !probe.wantErr, "\(probe.file): \(probe.desc)")
        }
    }

    @Test("transparency-dev/merkle's consistency probes: happy paths verify, every corrupted one is refused")
    func consistencyProbes() throws {
        let file = try JSONDecoder().decode(Probes<ConsistencyProbe>.self, from: resource("merkle_consistency_probes.json"))
        #expect(file.probes.count == 98)
        var inexpressible: [String] = []
        for probe in file.probes {
            guard let root1 = probe.root1.flatMap({ digest(base64: $0) }), let root2 = probe.root2.flatMap({ digest(base64: $0) }),
                  let proof = Self.probeHashes(probe.proof) else {
                // A root or proof element that is not a 32-byte hash cannot reach our typed API.
                if !probe.wantErr { inexpressible.append(probe.file) }
                continue
            }
            let accepted = succeeds { try MerkleTree.verifyConsistency(oldSize: probe.size1, newSize: probe.size2, oldRoot: root1, newRoot: root2, proof: proof) }
            #expect(accepted == !probe.wantErr, "\(probe.file): \(probe.desc)")
        }
        // The one happy probe with 12-byte "don't care" roots; its rule (equal sizes, equal
        // roots, empty proof) is the (1, 1) vector of `consistency()`.
        #expect(inexpressible == ["testdata/consistency/additional/sizes-are-equal-one-and-proof-is-empty.json"])
    }

    @Test("edge sizes are refused with their reason: index at or past the size, size 0, old size above new")
    func edgeArguments() throws {
        let leaf = MerkleTree.leafHash([1])
        #expect(throws: MerkleProofError(.invalidArguments, "leaf index 0 is not below the tree size 0")) {
            try MerkleTree.verifyInclusion(leafHash: leaf, index: 0, size: 0, proof: [], root: MerkleTree.emptyRoot)
        }
        #expect(throws: MerkleProofError.self) {
            try MerkleTree.verifyInclusion(leafHash: leaf, index: UInt64.max, size: UInt64.max, proof: [], root: leaf)
        }
        #expect(throws: MerkleProofError.self) {
            try MerkleTree.verifyConsistency(oldSize: 0, newSize: 0, oldRoot: leaf, newRoot: leaf, proof: [])
        }
        #expect(throws: MerkleProofError.self) {
            try MerkleTree.verifyConsistency(oldSize: 2, newSize: 1, oldRoot: leaf, newRoot: leaf, proof: [])
        }
        #expect(throws: MerkleProofError.self) {
            try MerkleTree.verifyConsistency(oldSize: 1, newSize: 1, oldRoot: leaf, newRoot: leaf, proof: [leaf])
        }
        // Sizes near 2^64: the loops end and the proof is refused for its length, no overflow.
        #expect(throws: MerkleProofError.self) {
            try MerkleTree.verifyConsistency(oldSize: UInt64.max - 1, newSize: UInt64.max, oldRoot: leaf, newRoot: leaf,
                                             proof: [SHA256.Digest](repeating: leaf, count: 64))
        }
        #expect(throws: MerkleProofError.self) {
            try MerkleTree.verifyInclusion(leafHash: leaf, index: UInt64.max - 1, size: UInt64.max, proof: [SHA256.Digest](repeating: leaf, count: 64), root: leaf)
        }
        let stored = InMemoryHashes(records: [[1], [2]])
        #expect(throws: MerkleProofError.self) { try MerkleTree.inclusionProof(index: 2, size: 2, hashes: stored) }
        #expect(throws: MerkleProofError.self) { try MerkleTree.consistencyProof(oldSize: 0, newSize: 2, hashes: stored) }
        #expect(throws: MissingStoredHash.self) { try MerkleTree.inclusionProof(index: 0, size: 3, hashes: stored) }
    }
}
