import Testing
import TestKit
import LedgerFixture
import EventStore
import EventCodec
import Transparency
@testable import LogProofs

/// `DIR/proofs/user-nodes` and `user-versions`: a version per indexed size, reopened as written;
/// a torn or damaged version record cuts the list there, an unfinished node append is cut, a
/// nodes file without its header starts both again, and a damaged node is found on the path that
/// reads it and the index built again, answering as before.
@Suite struct UserIndexFileChecks {
    /// The index at every size of the log, from a fresh store: (size, entries, root) of each.
    static func versions(_ log: ProofLog, sizes: [UInt64]) throws -> (notes: [String], heads: [UserIndexHead]) {
        let store = try log.store()
        let heads = try sizes.map { try store.index(at: $0).head }
        return (store.notes, heads)
    }

    static func users(through size: Int) throws -> Int {
        Set(try LedgerFixture.story.prefix(size).map { try EventCodec.decode($0).user }).count
    }

    @Test("built at several sizes, each version counts the users seen by then and is reopened as written")
    func builtAndReopened() throws {
        let log = try ProofLog()
        let sizes: [UInt64] = [3, 9, UInt64(LedgerFixture.story.count)]
        let built = try Self.versions(log, sizes: sizes)
        #expect(built.notes.isEmpty)
        #expect(built.heads.map(\.entries) == (try sizes.map { UInt64(try Self.users(through: Int($0))) }))
        #expect(Set(built.heads.map(\.root)).count == 3, "each size its own root")
        let file = try UserIndexFile(directory: log.proofs)
        #expect(file.notes.isEmpty && file.versions.map(\.size) == sizes && file.versions.map(\.head) == built.heads)
        #expect(try log.bytes("user-versions").count == sizes.count * UserIndexFile.Version.byteCount)
        // Asked again, a kept version is used as it is: nothing appended.
        let nodes = try log.bytes("user-nodes")
        let again = try Self.versions(log, sizes: sizes)
        let nodesAfter = try log.bytes("user-nodes")
        #expect(again.notes.isEmpty && again.heads == built.heads && nodesAfter == nodes)
    }

    @Test("a version record torn or with a flipped byte cuts the list there; the index at that size is built again, the same",
          arguments: [("torn", -30), ("flipped", -112 + 20)])
    func damagedVersion(what: String, offset: Int) throws {
        let log = try ProofLog()
        let sizes: [UInt64] = [3, 9, UInt64(LedgerFixture.story.count)]
        let built = try Self.versions(log, sizes: sizes)
        if what == "torn" { try log.cut("user-versions", to: 2 * 112 + 82) } else { try log.flip("user-versions", at: offset) }
        let file = try UserIndexFile(directory: log.proofs)
        #expect(file.versions.map(\.size) == [3, 9], "\(what)")
        #expect(file.notes == [log.proofs + "/user-versions: cut after 2 version(s) (a torn or damaged record)"], "\(what)")
        #expect(try log.bytes("user-versions").count == 2 * 112, "\(what)")
        let again = try Self.versions(log, sizes: sizes)
        #expect(again.heads == built.heads, "\(what)")
    }

    @Test("nodes written after the last version (an append cut before its version) are cut on open")
    func unfinishedAppend() throws {
        let log = try ProofLog()
        _ = try Self.versions(log, sizes: [5])
        let nodes = try log.bytes("user-nodes")
        try log.write("user-nodes", nodes + [0x4C] + [UInt8](repeating: 0, count: 50))
        let file = try UserIndexFile(directory: log.proofs)
        #expect(file.notes.isEmpty && file.versions.count == 1)
        #expect(try log.bytes("user-nodes") == nodes)
    }

    @Test("a nodes file without its header starts both files again")
    func noHeader() throws {
        let log = try ProofLog()
        _ = try Self.versions(log, sizes: [5])
        try log.flip("user-nodes", at: 2)
        let file = try UserIndexFile(directory: log.proofs)
        #expect(file.versions.isEmpty && file.notes == [log.proofs + "/user-nodes: no header; built again from the log"])
        #expect(try log.bytes("user-versions").isEmpty && (try log.bytes("user-nodes")) == UserIndexFile.nodesMagic)
    }

    @Test("a damaged node is refused when read, and the store builds the index again giving the same head")
    func damagedNode() throws {
        let log = try ProofLog()
        let size = UInt64(LedgerFixture.story.count)
        let built = try Self.versions(log, sizes: [size])
        let version = try #require(UserIndexFile(directory: log.proofs).versions.first)
        // The root node: flip a byte inside it (after its tag).
        try log.flip("user-nodes", at: Int(version.rootRef) + 10)
        let file = try UserIndexFile(directory: log.proofs)
        #expect(throws: ProofStoreError(log.proofs + "/user-nodes: the node at offset \(version.rootRef) is damaged (tag or CRC)")) {
            try file.node(version.rootRef)
        }
        #expect(throws: ProofStoreError(log.proofs + "/user-nodes: no node at offset 3")) { try file.node(3) }
        let again = try Self.versions(log, sizes: [size])
        #expect(again.heads == built.heads)
        #expect(again.notes.count == 1 && again.notes[0].contains("damaged (tag or CRC)") && again.notes[0].hasSuffix("built again from the log"),
                "\(again.notes)")
    }

    @Test("a node encoded and decoded is the same node; one cut short or with another tag is refused")
    func nodeCoding() throws {
        var rng = SplitMix64(seed: 0x5EED_1DE5)
        for _ in 0..<50 {
            let entry = UserIndexEntry(key: SHA256.Digest(bytes: rng.bytes(32)), count: rng.next() >> 1, chainHash: SHA256.Digest(bytes: rng.bytes(32)))
            let inner = UserIndexNode.inner(leftHash: SHA256.Digest(bytes: rng.bytes(32)), rightHash: SHA256.Digest(bytes: rng.bytes(32)),
                                            left: rng.next(), right: rng.next())
            for node in [UserIndexNode.leaf(entry), inner] {
                var bytes: [UInt8] = []
                UserIndexFile.encode(node, into: &bytes)
                #expect(bytes.count == (bytes[0] == 0x4C ? UserIndexFile.leafBytes : UserIndexFile.innerBytes), "seed 0x5EED1DE5")
                #expect(try UserIndexFile.decode(bytes, at: 64, path: "p") == node, "seed 0x5EED1DE5")
                #expect(throws: ProofStoreError.self) { try UserIndexFile.decode(Array(bytes.dropLast()), at: 64, path: "p") }
                var other = bytes
                other[0] = 0x4D
                #expect(throws: ProofStoreError.self) { try UserIndexFile.decode(other, at: 64, path: "p") }
            }
        }
    }
}
