import Testing
import Cryptography
@testable import Transparency

@Suite struct UserIndexProofs {
    /// An index of `count` users "u0"..., each with `i + 1` records of made-up leaf hashes.
    static func index(_ count: Int) throws -> (UserIndex, [String: RecordChain]) {
        var chains: [String: RecordChain] = [:]
        for i in 0..<count {
            chains["u\(i)"] = RecordChain(leafHashes: (0...i).map { SHA256.hash([UInt8(i), UInt8($0)]) })
        }
        return (try UserIndex(users: chains.map { ($0.key, $0.value) }), chains)
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

    @Test("every present user's proof verifies and returns their chain; absent users' proofs verify with no records")
    func presentAndAbsent() throws {
        for count in [0, 1, 2, 3, 7, 16] {
            let (index, chains) = try Self.index(count)
            let head = index.head
            #expect(head.entries == UInt64(count))
            for (user, chain) in chains {
                let proof = try index.proof(user: user)
                guard case .present = proof.membership else { Issue.record("\(user) not present"); continue }
                #expect(try proof.verify(user: user, head: head) == chain, "\(user) of \(count)")
            }
            // Absent users fall at the edges and in between.
            for i in 0..<40 {
                let user = "absent-\(i)"
                let proof = try index.proof(user: user)
                guard case .absent = proof.membership else { Issue.record("\(user) present"); continue }
                #expect(try proof.verify(user: user, head: head) == RecordChain(), "\(user) of \(count)")
            }
        }
    }

    @Test("an absence proof covers both edges: before the first entry and after the last")
    func edges() throws {
        let (index, _) = try Self.index(5)
        var sawFirst = false, sawLast = false
        for i in 0..<200 {
            let proof = try index.proof(user: "edge-\(i)")
            if case .absent(let left, let right) = proof.membership {
                if left == nil { sawFirst = true; #expect(right?.position == 0) }
                if right == nil { sawLast = true; #expect(left?.position == 4) }
            }
        }
        #expect(sawFirst && sawLast)
    }

    @Test("forged index proofs are refused with their reason")
    func forgeries() throws {
        let (index, _) = try Self.index(9)
        let head = index.head
        func refused(_ proof: UserIndexProof, user: String, head: UserIndexHead, _ reason: String) {
            do {
                _ = try proof.verify(user: user, head: head)
                Issue.record("accepted: \(reason)")
            } catch {
                #expect(error.message.contains(reason), "\(error.message) should say \(reason)")
            }
        }
        // Another user's entry presented as u3's.
        let other = try index.proof(user: "u4")
        refused(other, user: "u3", head: head, "not SHA-256 of the user")
        // u3's entry with a changed count.
        var proof = try index.proof(user: "u3")
        if case .present(var entry) = proof.membership {
            entry.entry.count += 1
            proof.membership = .present(entry)
        }
        refused(proof, user: "u3", head: head, "is not in the index")
        // Claiming u3 absent: neighbours that are not adjacent around it.
        let u3 = try index.proof(user: "u3")
        guard case .present(let u3Entry) = u3.membership else { Issue.record("u3 absent"); return }
        let before = u3Entry.position > 0 ? try index.entryProof(Int(u3Entry.position) - 1) : nil
        let after = Int(u3Entry.position) + 1 < index.entries.count ? try index.entryProof(Int(u3Entry.position) + 1) : nil
        refused(UserIndexProof(entries: 9, membership: .absent(left: before, right: after)), user: "u3", head: head,
                before == nil || after == nil ? "must be" : "not adjacent")
        // Adjacent neighbours that do not bracket the user.
        let absent = try index.proof(user: "nobody")
        refused(absent, user: "u3", head: head, "key")
        // The empty-index shape against a non-empty index.
        refused(UserIndexProof(entries: 9, membership: .absent(left: nil, right: nil)), user: "nobody", head: head, "empty index")
        // A proof for another index size.
        var resized = absent
        resized.entries = 10
        refused(resized, user: "nobody", head: head, "checkpoint's has 9")
        // The right head of another index.
        let (otherIndex, _) = try Self.index(10)
        refused(try otherIndex.proof(user: "u3"), user: "u3", head: UserIndexHead(entries: 10, root: head.root), "is not in the index")
        // A lone left neighbour in an empty index claims position 2^64 - 1 safely.
        refused(UserIndexProof(entries: 0, membership: .absent(left: u3Entry, right: nil)), user: "nobody",
                head: UserIndexHead(entries: 0, root: MerkleTree.emptyRoot), "last of the 0 entries")
    }

    @Test("entries out of order or repeated are refused")
    func unsorted() {
        let a = UserIndexEntry(user: "a", chain: RecordChain()), b = UserIndexEntry(user: "b", chain: RecordChain())
        let (low, high) = SHA256.Digest.precedes(a.key, b.key) ? (a, b) : (b, a)
        #expect(throws: Never.self) { try UserIndex(entries: [low, high]) }
        #expect(throws: UserIndexError.self) { try UserIndex(entries: [high, low]) }
        #expect(throws: UserIndexError.self) { try UserIndex(entries: [low, low]) }
    }
}
