import Foundation
import Testing

/// keygen, checkpoint, prove and check-proof end to end through the binary: genuine proofs pass,
/// every forgery is refused by the check that names it (exit 1, one line).
@Suite struct ProofCommands {
    @Test("every user's proof verifies, its lines are the export's lines, and an absent user gets a proof of absence")
    func genuineProofs() throws {
        let f = try ProofFixture(seed: 0x5EED01)
        defer { f.remove() }
        let cp = try f.checkpoint("cp")
        let lines = try f.exportLines()
        let users = try f.users()
        #expect(users.count > 3)
        for user in users {
            let proof = try f.prove(user, cp)
            let run = try f.check(proof)
            #expect(run.status == 0, "\(user): \(run.err)")
            #expect(run.out.hasPrefix("ok: \(user) has "))
            let records = ProofFixture.object(proof)["records"] as! [[String: Any]]
            let expected = lines.enumerated().filter { ((Tool.json($0.element) as! [String: Any])["user"] as! String) == user }
            #expect(records.map { $0["index"] as! Int } == expected.map(\.offset))
            #expect(records.map { $0["line"] as! String } == expected.map(\.element))
        }
        for absent in ["nobody-here", "zzzz", "0"] {
            let proof = try f.prove(absent, cp)
            let object = ProofFixture.object(proof)
            #expect((object["records"] as! [Any]).isEmpty)
            #expect((object["completeness"] as! [String: Any])["absent"] != nil)
            let run = try f.check(proof)
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("has 0 record(s)"))
        }
        // The key's forms and the checkpoint's: origin, size, root, user-smt line, signature.
        let text = try String(contentsOfFile: cp, encoding: .utf8)
        let parts = text.components(separatedBy: "\n")
        #expect(parts[0] == "example.com/ledger" && parts[1] == "\(lines.count)" && parts[3].hasPrefix("user-smt \(users.count) ") && parts[4] == "")
        #expect(parts[5].hasPrefix("— example.com/ledger "))
        #expect(try String(contentsOfFile: f.key, encoding: .utf8).hasPrefix("PRIVATE+KEY+example.com/ledger+"))
        #expect(try String(contentsOfFile: f.verifier, encoding: .utf8).hasPrefix("example.com/ledger+"))
    }

    @Test("keygen refuses an existing key file, a bad name, and output that is not a regular file")
    func keygenRefusals() throws {
        let f = try ProofFixture(users: 2, seed: 0x5EED02)
        defer { f.remove() }
        let again = Tool.run(["keygen", "--name", "other", "--out", f.key])
        #expect(again.status == 1 && again.err.contains("exists"))
        let badName = Tool.run(["keygen", "--name", "has space", "--out", f.folder + "/k2"])
        #expect(badName.status == 2)
        try FileManager.default.createDirectory(atPath: f.folder + "/adir", withIntermediateDirectories: true)
        let folder = Tool.run(["keygen", "--name", "n", "--out", f.folder + "/adir"])
        #expect(folder.status == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: f.key)
        #expect((attributes[.posixPermissions] as! Int) & 0o077 == 0)
        let toFolder = Tool.run(["prove", "--log", f.log, "--user", "u", "--checkpoint", try f.checkpoint("cp"), "--out", f.folder + "/adir"])
        #expect(toFolder.status == 1)
    }

    @Test("records dropped, added, reordered or changed in a proof are refused, each by its check")
    func recordForgeries() throws {
        let f = try ProofFixture(seed: 0x5EED03)
        defer { f.remove() }
        let cp = try f.checkpoint("cp")
        let users = try f.users()
        // The users with the most records, for forgeries that need two.
        let proofs = try users.map { (user: $0, proof: ProofFixture.object(try f.prove($0, cp))) }
            .sorted { ($0.proof["records"] as! [Any]).count > ($1.proof["records"] as! [Any]).count }
        let (user, proof) = (proofs[0].user, proofs[0].proof)
        let records = proof["records"] as! [[String: Any]]
        #expect(records.count >= 3, "\(user)")

        func refused(_ edit: ([[String: Any]]) -> [[String: Any]], _ check: String, _ what: String) throws {
            var forged = proof
            forged["records"] = edit(records)
            let run = try f.check(try ProofFixture.text(forged))
            #expect(run.status == 1, "\(what): \(run.out)")
            #expect(run.err.hasPrefix("replay-tool check-proof: \(check):"), "\(what): \(run.err)")
            #expect(run.err.split(separator: "\n").count == 1)
        }
        try refused({ Array($0.dropLast()) }, "completeness", "last record dropped")
        try refused({ var r = $0; r.remove(at: 1); return r }, "completeness", "middle record dropped")
        try refused({ var r = $0; r.swapAt(0, 1); return r }, "record order", "records reordered")
        try refused({ var r = $0; let line = r[0]["line"]; r[0]["line"] = r[1]["line"]; r[1]["line"] = line; return r }, "inclusion", "lines swapped, indices kept")
        try refused({ var r = $0; r[0]["line"] = (r[0]["line"] as! String).replacingOccurrences(of: "\"time\":\"20", with: "\"time\":\"19"); return r }, "inclusion", "a line changed")
        try refused({ $0 + [$0.last!] }, "record order", "a record repeated")
        // Another user's genuine record added in log order: its line names that user.
        let other = (proofs[1].proof["records"] as! [[String: Any]])[0]
        try refused({ ($0 + [other]).sorted { ($0["index"] as! Int) < ($1["index"] as! Int) } }, "record user", "another user's record added")
        // A record's line rewritten to name this user, kept at its index: not the leaf there.
        var renamed = other
        renamed["line"] = (other["line"] as! String).replacingOccurrences(of: "\"user\":\"\(proofs[1].user)\"", with: "\"user\":\"\(user)\"")
        try refused({ ($0 + [renamed]).sorted { ($0["index"] as! Int) < ($1["index"] as! Int) } }, "inclusion", "a record forged for this user")
    }

    @Test("another user's index entry, a false absence, truncated or padded hashes and overflowing sizes are refused")
    func indexAndFormatForgeries() throws {
        let f = try ProofFixture(seed: 0x5EED04)
        defer { f.remove() }
        let cp = try f.checkpoint("cp")
        let users = try f.users()
        let a = try f.prove(users[0], cp), b = try f.prove(users[1], cp)
        var swapped = ProofFixture.object(a)
        swapped["completeness"] = ProofFixture.object(b)["completeness"]
        var run = try f.check(try ProofFixture.text(swapped))
        #expect(run.status == 1 && run.err.contains(": user index:"), "\(run.err)")
        // An absence proof for a user who has records (their records removed too).
        var hidden = ProofFixture.object(a)
        hidden["records"] = [Any]()
        hidden["completeness"] = ProofFixture.object(try f.prove("nobody-at-all", cp))["completeness"]
        run = try f.check(try ProofFixture.text(hidden))
        #expect(run.status == 1 && run.err.contains(": user index:"), "\(run.err)")
        // A hash one byte short, one byte long.
        let hash = ((ProofFixture.object(a)["records"] as! [[String: Any]])[0]["inclusion"] as! [String])[0]
        let bytes = Data(base64Encoded: hash)!
        for bad in [bytes.dropLast().base64EncodedString(), (bytes + [0]).base64EncodedString()] {
            run = try f.check(a.replacingOccurrences(of: hash, with: bad))
            #expect(run.status == 1 && run.err.contains(": format:"), "\(run.err)")
        }
        // Sizes and indices past 2^64 - 1.
        let size = ProofFixture.object(a)["size"] as! Int
        run = try f.check(a.replacingOccurrences(of: "\"size\":\(size)", with: "\"size\":18446744073709551616"))
        #expect(run.status == 1 && run.err.contains(": format:"), "\(run.err)")
        run = try f.check(a.replacingOccurrences(of: "\"size\":\(size)", with: "\"size\":18446744073709551615"))
        #expect(run.status == 1 && run.err.contains(": checkpoint mismatch:"), "\(run.err)")
        run = try f.check(a.replacingOccurrences(of: "\"index\":", with: "\"index\":99999999999999999999"))
        #expect(run.status == 1 && run.err.contains(": format:"), "\(run.err)")
        run = try f.check("{\"from\":1")
        #expect(run.status == 1 && run.err.contains(": format:"), "\(run.err)")
    }

    @Test("a proof against an older, forged or another key's checkpoint is refused; prove refuses a checkpoint not of its log")
    func checkpointForgeries() throws {
        let f = try ProofFixture(seed: 0x5EED05)
        defer { f.remove() }
        let cp1 = try f.checkpoint("cp1")
        let user = try f.users()[0]
        let old = try f.prove(user, cp1)
        try ProofFixture.ok(Tool.run(["import", "--log", f.log, "-"], stdin: "{\"id\":\"proof-append-1\",\"type\":\"account_created\",\"user\":\"\(user)\",\"time\":\"2026-01-20T10:00:00Z\",\"data\":{},\"source\":\"server\"}\n"))
        let cp2 = try f.checkpoint("cp2")
        // The auditor trusts cp2: a proof made at cp1 (one record short) is not for it.
        var run = try f.check(old, ["--checkpoint", cp2])
        #expect(run.status == 1 && run.err.contains(": checkpoint mismatch:"), "\(run.err)")
        // The old proof with the new checkpoint put in: sizes differ; with the size patched too, the paths fail.
        let cp2Text = try String(contentsOfFile: cp2, encoding: .utf8), cp1Text = try String(contentsOfFile: cp1, encoding: .utf8)
        var patched = ProofFixture.object(old)
        patched["checkpoint"] = cp2Text
        run = try f.check(try ProofFixture.text(patched))
        #expect(run.status == 1 && run.err.contains(": checkpoint mismatch:"), "\(run.err)")
        patched["size"] = (patched["size"] as! Int) + 1
        run = try f.check(try ProofFixture.text(patched))
        #expect(run.status == 1 && (run.err.contains(": inclusion:") || run.err.contains(": completeness:")), "\(run.err)")
        // A forged checkpoint: the root changed, the signature kept.
        let rootLine = cp1Text.components(separatedBy: "\n")[2]
        let otherRoot = Data(repeating: 7, count: 32).base64EncodedString()
        var forged = ProofFixture.object(old)
        forged["checkpoint"] = cp1Text.replacingOccurrences(of: rootLine, with: otherRoot)
        run = try f.check(try ProofFixture.text(forged))
        #expect(run.status == 1 && run.err.contains(": signature:"), "\(run.err)")
        // Signed by another key of the same name.
        try ProofFixture.ok(Tool.run(["keygen", "--name", "example.com/ledger", "--out", f.folder + "/other"]))
        run = try f.check(old, verifier: f.folder + "/other.pub")
        #expect(run.status == 1 && run.err.contains(": signature:"), "\(run.err)")
        let otherCheckpoint = try f.checkpoint("cp-other", key: f.folder + "/other")
        run = try f.check(try f.prove(user, otherCheckpoint))
        #expect(run.status == 1 && run.err.contains(": signature:"), "\(run.err)")
        // prove refuses a checkpoint whose root is not the log's, or beyond its head.
        let forgedPath = try f.write(cp1Text.replacingOccurrences(of: rootLine, with: otherRoot), "forged-cp")
        let refused = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", forgedPath])
        #expect(refused.status == 1 && refused.err.contains("not a checkpoint of this log"), "\(refused.err)")
        let beyond = try f.write(cp1Text.replacingOccurrences(of: "\n\(ProofFixture.object(old)["size"] as! Int)\n", with: "\n999999\n"), "beyond-cp")
        let refusedBeyond = Tool.run(["prove", "--log", f.log, "--user", user, "--checkpoint", beyond])
        #expect(refusedBeyond.status == 1 && refusedBeyond.err.contains("not a checkpoint of this log"), "\(refusedBeyond.err)")
    }

    @Test("consistency between two checkpoints after an append verifies; a rewritten log's does not")
    func consistency() throws {
        let f = try ProofFixture(seed: 0x5EED06)
        defer { f.remove() }
        let cp1 = try f.checkpoint("cp1")
        let lines = try f.exportLines()
        try ProofFixture.ok(Tool.run(["import", "--log", f.log, "-"], stdin: "{\"id\":\"proof-append-2\",\"type\":\"account_created\",\"user\":\"late-user\",\"time\":\"2026-01-21T10:00:00Z\",\"data\":{},\"source\":\"server\"}\n"))
        let cp2 = try f.checkpoint("cp2")
        let proof = try ProofFixture.ok(Tool.run(["prove", "--log", f.log, "--consistency", "--from", cp1, "--checkpoint", cp2])).out
        let object = ProofFixture.object(proof)
        #expect(object["from"] as? Int == lines.count && object["to"] as? Int == lines.count + 1)
        var run = try f.check(proof, ["--from", cp1, "--checkpoint", cp2])
        #expect(run.status == 0, "\(run.err)")
        // From a checkpoint to itself: an empty proof.
        let same = try ProofFixture.ok(Tool.run(["prove", "--log", f.log, "--consistency", "--from", cp2, "--checkpoint", cp2])).out
        #expect(try f.check(same, ["--from", cp2, "--checkpoint", cp2]).status == 0)
        // Backwards is refused by prove.
        #expect(Tool.run(["prove", "--log", f.log, "--consistency", "--from", cp2, "--checkpoint", cp1]).status == 1)
        // A rewritten log: the same events but one changed before the old size, then the append; same key.
        let rewritten = f.folder + "/rewritten"
        let events = lines.enumerated().map { i, line -> String in
            var o = Tool.json(line) as! [String: Any]
            for k in ["position", "version", "recorded"] { o.removeValue(forKey: k) }
            if i == 1 { o["id"] = (o["id"] as! String) + "-rewritten" }
            return String(decoding: try! JSONSerialization.data(withJSONObject: o), as: UTF8.self)
        }
        try ProofFixture.ok(Tool.run(["import", "--log", rewritten, "-"], stdin: events.joined(separator: "\n") + "\n"))
        let old = try f.checkpoint("cp-rewritten-old", log: rewritten)
        try ProofFixture.ok(Tool.run(["import", "--log", rewritten, "-"], stdin: "{\"id\":\"proof-append-2\",\"type\":\"account_created\",\"user\":\"late-user\",\"time\":\"2026-01-21T10:00:00Z\",\"data\":{},\"source\":\"server\"}\n"))
        let new = try f.checkpoint("cp-rewritten-new", log: rewritten)
        let forked = try ProofFixture.ok(Tool.run(["prove", "--log", rewritten, "--consistency", "--from", old, "--checkpoint", new])).out
        // The auditor holds the genuine cp1: the rewritten log's new checkpoint does not extend it.
        run = try f.check(forked, ["--from", cp1, "--checkpoint", new])
        #expect(run.status == 1 && run.err.contains(": consistency:"), "\(run.err)")
        // prove on the rewritten log refuses the genuine old checkpoint.
        #expect(Tool.run(["prove", "--log", rewritten, "--consistency", "--from", cp1, "--checkpoint", new]).status == 1)
    }
}
