import Testing
import TestKit
import LedgerFixture
import EventStore
import Transparency
@testable import LogProofs

/// `DIR/proofs/hashes`: built to the log's head, reopened and used as it is, and, damaged (a
/// flipped byte in its header or a stored hash, a cut, another log's file), started again from
/// the log with a note naming why, its roots always RFC 9162's over the export lines.
@Suite struct TreeHashFileChecks {
    /// Opens the store, brings the tree to the head and returns its notes and roots at every size.
    static func open(_ log: ProofLog) throws -> (notes: [String], size: UInt64, roots: [[UInt8]]) {
        let store = try log.store()
        try store.catchUp()
        let roots = try (1...store.treeSize).map { try store.root(size: $0).bytes }
        return (store.notes, store.treeSize, roots)
    }

    static func expectedRoots(_ log: ProofLog) throws -> [[UInt8]] {
        let lines = try log.exportLines()
        return (1...lines.count).map { ReferenceSHA256.root(lines[..<$0]) }
    }

    @Test("built, the file covers the head, its length is its layout's, and every root is RFC 9162's")
    func built() throws {
        let log = try ProofLog()
        let first = try Self.open(log)
        #expect(first.notes.isEmpty && first.size == UInt64(LedgerFixture.story.count))
        #expect(first.roots == (try Self.expectedRoots(log)))
        #expect(try log.bytes("hashes").count == TreeHashFile.length(size: first.size))
        let header = try #require(try? TreeHashFile.Header.read(Array(log.bytes("hashes").prefix(TreeHashFile.Header.byteCount))).get())
        #expect(header.size == first.size && header.root.bytes == first.roots.last!)
        #expect(header.chainHash == (try EventLog(directory: log.path, access: .read).chainHash(at: first.size)))
    }

    @Test("reopened, the file is used as it is: no note, no bytes rewritten")
    func reopened() throws {
        let log = try ProofLog()
        _ = try Self.open(log)
        let before = try log.bytes("hashes")
        let again = try Self.open(log)
        #expect(again.notes.isEmpty && again.size == UInt64(LedgerFixture.story.count))
        #expect(try log.bytes("hashes") == before)
    }

    @Test("a damaged file is started again from the log, saying why, and its roots are right again", arguments: [
        ("a flipped byte in the header's size", "header", "its header fails its CRC"),
        ("a flipped byte in the magic", "magic", "no header"),
        ("a flipped byte in the last stored hash", "hash", "its stored hashes do not give the root its header records"),
        ("a cut inside the stored hashes", "cut", "it is shorter than its header says"),
        ("a header covering more records than the log", "longer", "it covers"),
    ])
    func damaged(what: String, how: String, says: String) throws {
        let log = try ProofLog()
        _ = try Self.open(log)
        let bytes = try log.bytes("hashes")
        switch how {
        case "header": try log.flip("hashes", at: 8)
        case "magic": try log.flip("hashes", at: 0)
        case "hash": try log.flip("hashes", at: -1)
        case "cut": try log.cut("hashes", to: bytes.count - 40)
        default:
            var header = try #require(try? TreeHashFile.Header.read(Array(bytes.prefix(TreeHashFile.Header.byteCount))).get())
            header.size += 5
            try log.write("hashes", header.bytes + bytes.dropFirst(TreeHashFile.Header.byteCount))
        }
        let reopened = try Self.open(log)
        #expect(reopened.notes.count == 1 && reopened.notes[0].contains(says) && reopened.notes[0].hasSuffix("built again from the log"),
                "\(what): \(reopened.notes)")
        #expect(reopened.notes.first?.hasPrefix(log.proofs + "/hashes: ") == true, "\(what): the note names the file")
        #expect(reopened.roots == (try Self.expectedRoots(log)), "\(what)")
        #expect(try log.bytes("hashes") == bytes, "\(what): rebuilt to the same bytes")
    }

    @Test("the hashes file of another log is found by its chain hash and started again")
    func anotherLog() throws {
        let mine = try ProofLog(), other = try ProofLog(LedgerFixture.story.map { $0.replacingOccurrences(of: "onboarding", with: "elsewhere") })
        _ = try Self.open(other)
        _ = try Self.open(mine)
        try mine.write("hashes", try other.bytes("hashes"))
        let reopened = try Self.open(mine)
        #expect(reopened.notes.count == 1 && reopened.notes[0].contains("made from another log"), "\(reopened.notes)")
        #expect(reopened.roots == (try Self.expectedRoots(mine)))
    }

    @Test("hashes written past the header's size (an append cut before its header) are cut, not trusted")
    func tailPastTheHeader() throws {
        let log = try ProofLog()
        _ = try Self.open(log)
        let bytes = try log.bytes("hashes")
        try log.write("hashes", bytes + [UInt8](repeating: 0xAB, count: 64))
        let reopened = try Self.open(log)
        let expected = try Self.expectedRoots(log)
        #expect(reopened.notes.isEmpty && reopened.roots == expected)
        #expect(try log.bytes("hashes") == bytes)
    }

    @Test("a root asked beyond the file's size is refused naming both sizes")
    func rootBeyondTheTree() throws {
        let log = try ProofLog()
        let store = try log.store()
        try store.catchUp()
        #expect(throws: ProofStoreError("the tree covers \(store.treeSize) records, not \(store.treeSize + 1)")) {
            try store.root(size: store.treeSize + 1)
        }
    }
}
