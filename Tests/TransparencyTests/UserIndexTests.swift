import Testing
import Cryptography
import TestKit
@testable import Transparency

@Suite struct UserIndexProofs {
    /// An index of `count` users "u0"..., each with `i + 1` records of made-up leaf hashes.
    static func index(_ count: Int) throws -> (UserIndex, [String: RecordChain]) {
        var chains: [String: RecordChain] = [:]
        for i in 0..<count {
            chains["u\(i)"] = RecordChain(leafHashes: (0...i).map { SHA256.hash([UInt8(i & 0xFF), UInt8(i >> 8), UInt8($0 & 0xFF)]) })
        }
        return (try UserIndex(users: chains.map { ($0.key, $0.value) }), chains)
    }

    /// The tree's root straight from its definition (docs/proofs.md), recursively over the
    /// sorted entries: empty zero bytes, one entry its leaf hash, else the node of both halves.
    static func definitionRoot(_ entries: [UserIndexEntry], depth: Int = 0) -> SHA256.Digest {
        if entries.isEmpty { return .zero }
        if entries.count == 1 { return MerkleTree.leafHash(entries[0].bytes) }
        let left = entries.filter { !$0.key.bit(depth) }, right = entries.filter { $0.key.bit(depth) }
        return MerkleTree.nodeHash(definitionRoot(left, depth: depth + 1), definitionRoot(right, depth: depth + 1))
    }

    static func sorted(_ chains: [String: RecordChain]) -> [UserIndexEntry] {
        chains.map { UserIndexEntry(user: $0.key, chain: $0.value) }.sorted { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }
    }

    @Test("the chain is h0 = zeros, h(j+1) = SHA-256(h(j) || leaf j)")
    func chainDefinition() {
        let a = SHA256.hash([1]), b = SHA256.hash([2])
        let h1 = SHA256.hash([UInt8](repeating: 0, count: 32) + a.bytes)
        let h2 = SHA256.hash(h1.bytes + b.bytes)
        let chain = RecordChain(leafHashes: [a, b])
        #expect(chain.count == 2 && chain.hash == h2)
        #expect(RecordChain().hash == .zero && RecordChain().count == 0)
    }

    @Test("an entry is key || count big-endian || chain, 72 bytes; the key is SHA-256 of the user id")
    func entryEncoding() {
        let entry = UserIndexEntry(user: "alice", chain: RecordChain(count: 0x0102_0304_0506_0708, hash: SHA256.hash([9])))
        #expect(entry.key == SHA256.hash(Array("alice".utf8)))
        #expect(entry.bytes == SHA256.hash(Array("alice".utf8)).bytes + [1, 2, 3, 4, 5, 6, 7, 8] + SHA256.hash([9]).bytes)
        #expect(entry.leafHash == MerkleTree.leafHash(entry.bytes))
    }

    @Test("the empty index's root is 32 zero bytes, one user's is their leaf hash, two users meet where their keys first differ")
    func smallTrees() throws {
        #expect(UserIndex().head == UserIndexHead(entries: 0, root: .zero))
        let a = UserIndexEntry(user: "a", chain: RecordChain(leafHashes: [SHA256.hash([1])]))
        #expect(try UserIndex(entries: [a]).head == UserIndexHead(entries: 1, root: a.leafHash))
        // Two users whose keys share their first d bits: d levels of empty siblings above them.
        var found = 0
        for i in 0..<400 where found < 3 {
            let b = UserIndexEntry(user: "b\(i)", chain: RecordChain())
            var d = 0
            while a.key.bit(d) == b.key.bit(d) { d += 1 }
            guard d >= found else { continue }
            found += 1
            var node = a.key.bit(d) ? MerkleTree.nodeHash(b.leafHash, a.leafHash) : MerkleTree.nodeHash(a.leafHash, b.leafHash)
            for level in stride(from: d - 1, through: 0, by: -1) {
                node = a.key.bit(level) ? MerkleTree.nodeHash(.zero, node) : MerkleTree.nodeHash(node, .zero)
            }
            let pair = SHA256.Digest.precedes(a.key, b.key) ? [a, b] : [b, a]
            let index = try UserIndex(entries: pair)
            #expect(index.head == UserIndexHead(entries: 2, root: node), "b\(i): keys first differ at bit \(d)")
            let proof = try index.proof(user: "a")
            #expect(proof.siblings.count == d + 1 && proof.siblings.prefix(d).allSatisfy { $0 == .zero }, "b\(i)")
        }
        #expect(found == 3)
    }

    @Test("every present user's proof verifies and returns their chain; absent users' proofs verify with no records")
    func presentAndAbsent() throws {
        var endsAtEntry = 0, endsEmpty = 0
        for count in [0, 1, 2, 3, 7, 16, 300] {
            let (index, chains) = try Self.index(count)
            let head = index.head
            #expect(head.entries == UInt64(count))
            #expect(head.root == Self.definitionRoot(Self.sorted(chains)), "\(count) users")
            for (user, chain) in chains {
                let proof = try index.proof(user: user)
                guard case .present = proof.membership else { Issue.record("\(user) not present"); continue }
                #expect(try proof.verify(user: user, head: head) == chain, "\(user) of \(count)")
            }
            for i in 0..<200 {
                let user = "absent-\(i)"
                let proof = try index.proof(user: user)
                guard case .absent(let other) = proof.membership else { Issue.record("\(user) present"); continue }
                if other == nil { endsEmpty += 1 } else { endsAtEntry += 1 }
                #expect(try proof.verify(user: user, head: head) == RecordChain(), "\(user) of \(count)")
            }
        }
        #expect(endsAtEntry > 0 && endsEmpty > 0, "both kinds of absence: \(endsAtEntry) at an entry, \(endsEmpty) at an empty subtree")
    }

    @Test("an index brought forward in random batches equals the index built at once, and keeps every earlier version")
    func incremental() throws {
        let seed: UInt64 = 0x5EED_5A7
        var random = SplitMix64(seed: seed)
        var chains: [String: RecordChain] = [:]
        var index = UserIndex()
        var versions: [(rootRef: UInt64, head: UserIndexHead, chains: [String: RecordChain])] = []
        for round in 0..<40 {
            var touched: [String: RecordChain] = [:]
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let user = "user-\(Int.random(in: 0..<60, using: &random))"
                var chain = touched[user] ?? chains[user] ?? RecordChain()
                chain.append(leafHash: SHA256.hash([UInt8(round), UInt8.random(in: 0...255, using: &random)]))
                touched[user] = chain
            }
            chains.merge(touched) { $1 }
            try index.update(Self.sorted(touched))
            let whole = try UserIndex(entries: Self.sorted(chains))
            #expect(index.head == whole.head, "seed \(seed) round \(round)")
            versions.append((index.rootRef, index.head, chains))
        }
        // An earlier version still proves what it held.
        for (i, version) in versions.enumerated() where i % 7 == 3 {
            for user in ["user-1", "user-17", "user-42", "nobody"] {
                let proof = try UserIndexTree.proof(user: user, root: version.rootRef, entries: version.head.entries, in: index.nodes)
                #expect(try proof.verify(user: user, head: version.head) == version.chains[user] ?? RecordChain(), "seed \(seed) version \(i) \(user)")
            }
        }
    }

    static func refused(_ proof: UserIndexProof, user: String, head: UserIndexHead, _ reason: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try proof.verify(user: user, head: head)
            Issue.record("accepted: \(reason)", sourceLocation: sourceLocation)
        } catch {
            #expect(reason.isEmpty || error.message.contains(reason), "\(error.message) should say \(reason)", sourceLocation: sourceLocation)
        }
    }

    @Test("forged index proofs are refused with their reason: another key, a changed entry, a wrong sibling, a wrong depth, absence of a present user")
    func forgeries() throws {
        let (index, _) = try Self.index(40)
        let head = index.head
        // Another user's entry presented as u3's.
        Self.refused(try index.proof(user: "u4"), user: "u3", head: head, "not SHA-256 of the user")
        let u3 = try index.proof(user: "u3")
        guard case .present(let entry) = u3.membership else { Issue.record("u3 absent"); return }
        // u3's entry with a changed count or chain.
        var recounted = u3
        recounted.membership = .present(UserIndexEntry(key: entry.key, count: entry.count + 1, chainHash: entry.chainHash))
        Self.refused(recounted, user: "u3", head: head, "is not in the index")
        // The true path against a root that differs from the index's in one byte only, first or last.
        for at in [0, 31] {
            var bytes = head.root.bytes
            bytes[at] ^= 0x01
            let near = UserIndexHead(entries: head.entries, root: SHA256.Digest(bytes: bytes))
            Self.refused(u3, user: "u3", head: near, "is not in the index")
        }
        // A wrong sibling, at the top and at the bottom.
        for d in [0, u3.siblings.count - 1] {
            var wrong = u3
            wrong.siblings[d] = SHA256.hash(wrong.siblings[d].bytes)
            Self.refused(wrong, user: "u3", head: head, "is not in the index")
        }
        // A wrong depth: one sibling fewer, an empty sibling more (the leaf pushed down).
        var shallow = u3
        shallow.siblings.removeLast()
        Self.refused(shallow, user: "u3", head: head, "is not in the index")
        var deep = u3
        deep.siblings.append(.zero)
        Self.refused(deep, user: "u3", head: head, "wrong depth")
        var tooDeep = u3
        tooDeep.siblings = [SHA256.Digest](repeating: SHA256.hash([1]), count: 257)
        Self.refused(tooDeep, user: "u3", head: head, "deeper than")
        // Absence of a present user: ending at their own entry, at an empty subtree on their
        // path, or at another user's entry (which is not on their path).
        Self.refused(UserIndexProof(entries: 40, siblings: u3.siblings, membership: .absent(entry)), user: "u3", head: head, "own entry")
        Self.refused(UserIndexProof(entries: 40, siblings: u3.siblings, membership: .absent(nil)), user: "u3", head: head, "is not in the index")
        guard case .present(let u4) = try index.proof(user: "u4").membership else { Issue.record("u4 absent"); return }
        Self.refused(UserIndexProof(entries: 40, siblings: u3.siblings, membership: .absent(u4)), user: "u3", head: head,
                     u4.key.sharesPrefix(with: entry.key, bits: u3.siblings.count) ? "is not in the index" : "not on the user's path")
        // Another user's true absence proof presented for u3.
        Self.refused(try index.proof(user: "nobody"), user: "u3", head: head, "")
        // A proof for another index size, the empty-index shape against a non-empty index.
        var resized = u3
        resized.entries = 41
        Self.refused(resized, user: "u3", head: head, "checkpoint's has 40")
        Self.refused(UserIndexProof(entries: 40, siblings: [], membership: .absent(nil)), user: "nobody", head: head, "depth 0")
        Self.refused(UserIndexProof(entries: 40, siblings: [], membership: .present(entry)), user: "u3", head: head, "depth 0")
        // The right head of another index.
        let (other, _) = try Self.index(41)
        Self.refused(try other.proof(user: "u3"), user: "u3", head: UserIndexHead(entries: 41, root: head.root), "is not in the index")
        // An absence claimed in the empty index's shape against a one-user index.
        let one = try UserIndex(entries: [entry])
        Self.refused(UserIndexProof(entries: 1, siblings: [], membership: .absent(nil)), user: "u3", head: one.head, "depth 0")
    }

    @Test("changes out of order or repeated are refused")
    func unsorted() {
        let a = UserIndexEntry(user: "a", chain: RecordChain()), b = UserIndexEntry(user: "b", chain: RecordChain())
        let (low, high) = SHA256.Digest.precedes(a.key, b.key) ? (a, b) : (b, a)
        #expect(throws: Never.self) { try UserIndex(entries: [low, high]) }
        #expect(throws: UserIndexError.self) { try UserIndex(entries: [high, low]) }
        #expect(throws: UserIndexError.self) { try UserIndex(entries: [low, low]) }
    }
}
