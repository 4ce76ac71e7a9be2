import Foundation
import Testing

/// The proof files beside the log are derived: damaged, cut, or of another log, they are built
/// again from the log (said on stderr) and never used; proofs made after still verify.
@Suite struct ProofDerivedFiles {
    /// Overwrites `count` bytes at `offset` of the file at `path` with their complement.
    static func flip(_ path: String, at offset: UInt64, count: Int = 1) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let bytes = try handle.read(upToCount: count) ?? Data()
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(bytes.map { ~$0 }))
    }

    static func size(_ path: String) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).uint64Value
    }

    @Test("a damaged hashes file (a stored hash, the header, a cut tail) is rebuilt and proofs still verify")
    func damagedHashes() throws {
        let f = try ProofFixture(seed: 0x5EED11)
        defer { f.remove() }
        let cp = try f.checkpoint("cp")
        let hashes = f.log + "/proofs/hashes"
        let users = try f.users()
        let genuine = try f.prove(users[0], cp)
        // The second leaf hash (layout position 1): the first record's path reads it.
        try Self.flip(hashes, at: 96 + 32)
        var run = Tool.run(["prove", "--log", f.log, "--user", users[0], "--checkpoint", cp])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("built again from the log"), "\(run.err)")
        #expect(run.out == genuine + "\n" || run.out == genuine)
        #expect(try f.check(run.out).status == 0)
        // The header.
        try Self.flip(hashes, at: 20)
        run = Tool.run(["prove", "--log", f.log, "--user", users[1], "--checkpoint", cp])
        #expect(run.status == 0 && run.err.contains("CRC"), "\(run.err)")
        #expect(try f.check(run.out).status == 0)
        // The last stored hash (the frontier: the root no longer checks).
        try Self.flip(hashes, at: try Self.size(hashes) - 32)
        run = Tool.run(["checkpoint", "--log", f.log, "--key", f.key])
        #expect(run.status == 0 && run.err.contains("do not give the root"), "\(run.err)")
        #expect(run.out == (try String(contentsOfFile: cp, encoding: .utf8)))
        // Cut short.
        try FileHandle(forUpdating: URL(fileURLWithPath: hashes)).truncate(atOffset: try Self.size(hashes) - 40)
        run = Tool.run(["checkpoint", "--log", f.log, "--key", f.key])
        #expect(run.status == 0 && run.err.contains("shorter"), "\(run.err)")
        #expect(run.out == (try String(contentsOfFile: cp, encoding: .utf8)))
        // Intact: nothing rebuilt, nothing said.
        run = Tool.run(["checkpoint", "--log", f.log, "--key", f.key])
        #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
    }

    @Test("the proof files of another log are not used: rebuilt, and the proofs are this log's")
    func anotherLogsFiles() throws {
        let a = try ProofFixture(seed: 0x5EED12)
        defer { a.remove() }
        let b = try ProofFixture(seed: 0x5EED13)
        defer { b.remove() }
        _ = try a.checkpoint("cp")
        _ = try b.checkpoint("cp")
        // a's proof files put beside b's log.
        try FileManager.default.removeItem(atPath: b.log + "/proofs")
        try FileManager.default.copyItem(atPath: a.log + "/proofs", toPath: b.log + "/proofs")
        let run = Tool.run(["checkpoint", "--log", b.log, "--key", b.key])
        // Another log's header: longer than this log, or its chain hash at its size is not this log's.
        #expect(run.status == 0 && (run.err.contains("another log") || run.err.contains("the log has")) && run.err.contains("built again"), "\(run.err)")
        #expect(run.out == (try String(contentsOfFile: b.folder + "/cp", encoding: .utf8)))
        let user = try b.users()[0]
        #expect(try b.check(try b.prove(user, b.folder + "/cp")).status == 0)
    }

    @Test("another log's user index beside this log's tree hashes, from a shorter log, is found by its chain hash and built again")
    func anotherShorterLogsUserIndex() throws {
        let a = try ProofFixture(users: 10, seed: 0x5EED16)
        defer { a.remove() }
        let b = try ProofFixture(users: 40, seed: 0x5EED17)
        defer { b.remove() }
        _ = try a.checkpoint("cp")
        _ = try b.checkpoint("cp")
        // Only the user index of a (a shorter log: its versions are at sizes b also has), b's tree hashes kept.
        for name in ["user-nodes", "user-versions"] {
            try FileManager.default.removeItem(atPath: b.log + "/proofs/" + name)
            try FileManager.default.copyItem(atPath: a.log + "/proofs/" + name, toPath: b.log + "/proofs/" + name)
        }
        let run = Tool.run(["checkpoint", "--log", b.log, "--key", b.key])
        #expect(run.status == 0 && run.err.contains("built again"), "\(run.err)")
        #expect(run.out == (try String(contentsOfFile: b.folder + "/cp", encoding: .utf8)), "the same user-smt line as b's own index")
        let user = try b.users()[0]
        #expect(try b.check(try b.prove(user, b.folder + "/cp")).status == 0)
    }

    @Test("a version record that reads whole but whose root node does not hash to its root is built again")
    func aVersionWhoseRootNodeIsNotItsRoot() throws {
        #expect(Self.crc32c(Array("123456789".utf8)) == 0xE306_9283, "the check value of CRC-32C")
        let f = try ProofFixture(seed: 0x5EED18)
        defer { f.remove() }
        _ = try f.checkpoint("cp")
        // The last version record's root changed, and its CRC made right again: only the check
        // of the root node against the root can tell.
        let path = f.log + "/proofs/user-versions"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let at = bytes.count - 112
        bytes[at + 48] ^= 0x01
        let crc = Self.crc32c(Array(bytes[at..<(at + 104)]))
        for i in 0..<4 { bytes[at + 104 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = Tool.run(["checkpoint", "--log", f.log, "--key", f.key])
        #expect(run.status == 0 && run.err.contains("does not hash to its root") && run.err.contains("built again"), "\(run.err)")
        #expect(run.out == (try String(contentsOfFile: f.folder + "/cp", encoding: .utf8)), "the user-smt line of the index built from scratch")
    }

    /// CRC-32C (Castagnoli, reflected), bit by bit: the version record's check, written apart from the tool's.
    static func crc32c(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    /// The little-endian 8 bytes at `offset` of the file at `path`.
    static func uint64(_ path: String, at offset: UInt64) throws -> UInt64 {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let bytes = try handle.read(upToCount: 8) ?? Data()
        return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    @Test("a checkpoint after an append writes only the touched user's path into the completeness index")
    func incrementalIndex() throws {
        let f = try ProofFixture(users: 60, seed: 0x5EED15)
        defer { f.remove() }
        _ = try f.checkpoint("cp1")
        let nodes = f.log + "/proofs/user-nodes", versions = f.log + "/proofs/user-versions"
        let before = try Self.size(nodes)
        let user = try f.users()[0]
        try ProofFixture.ok(Tool.run(["import", "--log", f.log, "-"], stdin: "{\"id\":\"proof-append-5\",\"type\":\"account_created\",\"user\":\"\(user)\",\"time\":\"2026-01-22T10:00:00Z\",\"data\":{},\"source\":\"server\"}\n"))
        let cp2 = try f.checkpoint("cp2")
        // One path (at most one node per key bit, and in practice about log2(users)) against
        // a leaf per user for a rebuilt index; the earlier version is kept beside it.
        let grown = try Self.size(nodes) - before
        #expect(grown > 0 && grown < 20 * 85, "the index grew by \(grown) bytes for one record")
        #expect(try Self.size(versions) == 2 * 112)
        #expect(try f.check(try f.prove(user, cp2)).status == 0)
    }

    @Test("a damaged node deep in the completeness index is found on the path that reads it and the index built again")
    func damagedDeepNode() throws {
        let f = try ProofFixture(seed: 0x5EED17)
        defer { f.remove() }
        let cp = try f.checkpoint("cp")
        // The first node written: the leaf of the smallest key, read by that user's path only.
        try Self.flip(f.log + "/proofs/user-nodes", at: 64 + 10)
        var rebuilt = 0
        for user in try f.users() {
            let run = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", cp])
            #expect(run.status == 0, "\(user): \(run.err)")
            #expect(try f.check(run.out, ["--checkpoint", cp]).status == 0, "\(user)")
            if run.err.contains("damaged") && run.err.contains("built again") { rebuilt += 1 }
        }
        #expect(rebuilt == 1)
        // A checkpoint after an append over the damaged index signs the root one made from scratch signs.
        try Self.flip(f.log + "/proofs/user-nodes", at: 64 + 10)
        let user = try f.users()[0]
        try ProofFixture.ok(Tool.run(["import", "--log", f.log, "-"], stdin: "{\"id\":\"proof-append-7\",\"type\":\"account_created\",\"user\":\"\(user)\",\"time\":\"2026-01-22T10:00:00Z\",\"data\":{},\"source\":\"server\"}\n"))
        let run = Tool.run(["checkpoint", "--log", f.log, "--key", f.key])
        #expect(run.status == 0, "\(run.err)")
        try run.out.write(toFile: f.folder + "/cp2", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: f.log + "/proofs")
        #expect(try ProofFixture.ok(Tool.run(["checkpoint", "--log", f.log, "--key", f.key])).out.split(separator: "\n")[3] == run.out.split(separator: "\n")[3],
                "the user-smt line of a checkpoint made over the damaged index is the one made from scratch")
        #expect(try f.check(try f.prove(user, f.folder + "/cp2"), ["--checkpoint", f.folder + "/cp2"]).status == 0)
    }

    @Test("a damaged, torn or missing completeness index is rebuilt as of the checkpoint's size, after appends")
    func damagedIndex() throws {
        let f = try ProofFixture(seed: 0x5EED14)
        defer { f.remove() }
        let cp1 = try f.checkpoint("cp1")
        let size = Int(try String(contentsOfFile: cp1, encoding: .utf8).components(separatedBy: "\n")[1])!
        let user = try f.users()[0]
        try ProofFixture.ok(Tool.run(["import", "--log", f.log, "-"], stdin: "{\"id\":\"proof-append-3\",\"type\":\"account_created\",\"user\":\"\(user)\",\"time\":\"2026-01-22T10:00:00Z\",\"data\":{},\"source\":\"server\"}\n"))
        let cp2 = try f.checkpoint("cp2")
        let nodes = f.log + "/proofs/user-nodes", versions = f.log + "/proofs/user-versions"
        // The latest version's root node damaged: its CRC fails, the index is built again.
        let rootRef = try Self.uint64(versions, at: 112 + 88)
        try Self.flip(nodes, at: rootRef + 10)
        var run = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", cp2])
        #expect(run.status == 0 && run.err.contains("damaged") && run.err.contains("built again"), "\(run.err)")
        #expect(try f.check(run.out, ["--checkpoint", cp2]).status == 0)
        // A torn version record: cut, the version built again from the one before.
        try FileHandle(forUpdating: URL(fileURLWithPath: versions)).truncate(atOffset: try Self.size(versions) - 50)
        run = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", cp2])
        #expect(run.status == 0 && run.err.contains("torn"), "\(run.err)")
        #expect(try f.check(run.out, ["--checkpoint", cp2]).status == 0)
        // An unfinished node append (bytes past the last version): cut, never read.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: nodes))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x4E, count: 300))
        try handle.close()
        run = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", cp1])
        #expect(run.status == 0, "\(run.err)")
        #expect(try f.check(run.out, ["--checkpoint", cp1]).status == 0)
        let lastVersion = try Self.size(versions) / 112 - 1
        #expect(try Self.size(nodes) == (try Self.uint64(versions, at: lastVersion * 112 + 96)))
        // Removed: rebuilt from the start up to the checkpoint's size, not the head.
        try FileManager.default.removeItem(atPath: nodes)
        try FileManager.default.removeItem(atPath: versions)
        run = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", cp1])
        #expect(run.status == 0, "\(run.err)")
        #expect(try f.check(run.out, ["--checkpoint", cp1]).status == 0)
        #expect(try Self.size(versions) == 112 && (try Self.uint64(versions, at: 8)) == UInt64(size))
        // A damaged version record (its CRC): cut there, built again.
        try Self.flip(versions, at: 20)
        run = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", cp1])
        #expect(run.status == 0 && run.err.contains("torn"), "\(run.err)")
        #expect(try f.check(run.out, ["--checkpoint", cp1]).status == 0)
    }
}

/// prove does not read the log's last segment again at open; what it serves is still checked: a
/// damaged record is refused where it is read. checkpoint reads it again: a damaged log is not signed.
@Suite struct ProofLogDamage {
    @Test("a damaged record of the user in the last segment fails prove naming the damage; other users' proofs still verify")
    func damagedRecord() throws {
        let f = try ProofFixture(seed: 0x5EED16)
        defer { f.remove() }
        let cp = try f.checkpoint("cp")
        let users = try f.users()
        let victim = users[1], other = users[2]
        let line = try f.exportLines().first { (Tool.json($0) as! [String: Any])["user"] as? String == victim }!
        let id = (Tool.json(line) as! [String: Any])["id"] as! String
        let segments = try FileManager.default.contentsOfDirectory(atPath: f.log + "/segments").filter { $0.hasSuffix(".seg") }.sorted()
        let segment = f.log + "/segments/" + segments.last!
        let bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        let at = try #require(bytes.range(of: Data(id.utf8)))
        try ProofDerivedFiles.flip(segment, at: UInt64(at.lowerBound + 1))
        let run = Tool.run(["prove", "--log", f.log, "--user", victim, "--checkpoint", cp])
        #expect(run.status == 1 && run.out.isEmpty, "\(run.err)")
        #expect(run.err.contains("CRC") || run.err.contains("damage"), "\(run.err)")
        #expect(try f.check(try f.prove(other, cp)).status == 0)
        #expect(Tool.run(["verify", "--log", f.log]).status == 1)
        // The record was hashed into the proof files before it was damaged: checkpoint still refuses to sign.
        let signing = Tool.run(["checkpoint", "--log", f.log, "--key", f.key])
        #expect(signing.status == 1 && signing.out.isEmpty, "\(signing.err)")
        #expect(signing.err.contains("record checksum (CRC32C) mismatch") && signing.err.contains(segments.last!), "\(signing.err)")
    }
}
