import Foundation
import Testing
import Cryptography
@testable import Transparency

/// Go's golang.org/x/mod/sumdb/note and sumdb/tlog as an independent verifier, run offline in
/// GOPATH mode against Debian's golang-golang-x-mod-dev sources (`apt-get install -y golang-go
/// golang-golang-x-mod-dev`). Skipped, with a message, when either is missing.
@Suite struct GoInterop {
    /// Debian's package puts golang.org/x/mod here; GOPATH mode finds it with no network.
    static let gopath = "/usr/share/gocode"

    static var goBinary: String? {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/go" }
            + ["/usr/bin/go", "/usr/lib/go/bin/go", "/usr/local/go/bin/go"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var available: Bool {
        goBinary != nil && FileManager.default.fileExists(atPath: gopath + "/src/golang.org/x/mod/sumdb/note/note.go")
    }

    struct Output: Decodable {
        var errors: [String]?
        var checks: Int
        var openedText: String
        var goSignedWithOurKey: String
        var goPrivateKey: String
        var goVerifierKey: String
        var goSignedNote: String
        var goNoteText: String
    }

    /// Runs the Go program on `input`; its report.
    static func runGo(_ input: [String: Any]) throws -> Output {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("transparency-go-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let source = try resource("go_interop/main.go")
        try source.write(to: work.appendingPathComponent("main.go"))
        try JSONSerialization.data(withJSONObject: input).write(to: work.appendingPathComponent("input.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: goBinary ?? "/usr/bin/go")
        process.arguments = ["run", "main.go", "input.json"]
        process.currentDirectoryURL = work
        // GOPATH mode, no module proxy, no toolchain download: nothing leaves the machine.
        process.environment = [
            "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": work.path, "GOPATH": gopath, "GO111MODULE": "off",
            "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local",
            "GOCACHE": FileManager.default.temporaryDirectory.appendingPathComponent("transparency-go-build-cache").path,
        ]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GoFailed(status: process.terminationStatus, stderr: String(decoding: err, as: UTF8.self))
        }
        return try JSONDecoder().decode(Output.self, from: out)
    }

    struct GoFailed: Error, CustomStringConvertible {
        var status: Int32
        var stderr: String
        var description: String { "go run exited \(status): \(stderr)" }
    }

    @Test("Go opens our checkpoint, parses our keys, checks our inclusion and consistency proofs and stored hashes; we open Go's notes")
    func interop() throws {
        guard Self.available else {
            print("GoInterop skipped: needs `go` and \(Self.gopath)/src/golang.org/x/mod (apt-get install -y golang-go golang-golang-x-mod-dev)")
            return
        }
        let seed: UInt64 = 0x601A
        var random = SplitMix64(seed: seed)
        var log = TestLog(count: 0, userCount: 1, seed: 0)
        for position in 1...37 {
            let user = "user-\(Int.random(in: 0..<4, using: &random))"
            log.append(line: "{\"position\":\(position),\"user\":\"\(user)\",\"amount\":\(Int.random(in: 1...500, using: &random))}", user: user)
        }
        let signer = try NoteSigner(keyText: NoteSigner.generate(name: "ledger.example/log").keyText)
        let checkpoint = try log.checkpoint(signer: signer)
        let leafHashes = log.lines.map { MerkleTree.leafHash(Array($0.utf8)) }
        let memory = InMemoryHashes(leafHashes: leafHashes)
        let roots = (0...leafHashes.count).map { MerkleTree.root(leafHashes: Array(leafHashes[..<$0])) }
        func b64(_ digest: SHA256.Digest) -> String { Base64.encode(digest.bytes) }

        var inclusions: [[String: Any]] = [], forged: [[String: Any]] = [], consistency: [[String: Any]] = []
        for _ in 0..<25 {
            let size = UInt64.random(in: 1...37, using: &random)
            let index = UInt64.random(in: 0..<size, using: &random)
            let proof = try MerkleTree.inclusionProof(index: index, size: size, hashes: log.stored)
            inclusions.append(["index": index, "size": size, "root": b64(roots[Int(size)]), "proof": proof.map(b64)])
            if size > 1 {
                // The same path claimed for the next leaf: Go must refuse it too.
                forged.append(["index": (index + 1) % size, "size": size, "root": b64(roots[Int(size)]), "proof": proof.map(b64)])
            }
            let from = UInt64.random(in: 1...size, using: &random)
            consistency.append(["from": from, "to": size, "oldRoot": b64(roots[Int(from)]), "newRoot": b64(roots[Int(size)]),
                                "proof": try MerkleTree.consistencyProof(oldSize: from, newSize: size, hashes: memory).map(b64)])
        }
        let noteText = "ledger.example/log\n5\n\(b64(roots[5]))\n"
        let output = try Self.runGo([
            "verifierKey": signer.verifierKeyText, "privateKey": signer.keyText, "checkpoint": checkpoint, "noteText": noteText,
            "leaves": log.lines.map { Base64.encode(Array($0.utf8)) }, "storedHashes": log.stored.hashes.map(b64),
            "root": b64(log.accumulator.root), "inclusions": inclusions, "consistency": consistency, "forgedInclusions": forged,
        ])
        #expect(output.errors ?? [] == [], "seed \(seed)")
        #expect(output.checks == 5 + inclusions.count + consistency.count + forged.count, "every Go check ran")
        #expect(output.openedText == (try SignedNote(opening: checkpoint, verifier: signer.verifier).text))
        // Ed25519 is deterministic: Go signing with our key gives our note byte for byte.
        #expect(output.goSignedWithOurKey == (try SignedNote.sign(noteText, by: signer)))

        // Conversely: Go's key texts parse here, and Go's signed note opens and is a checkpoint.
        let goVerifier = try NoteVerifier(keyText: output.goVerifierKey)
        let goSigner = try NoteSigner(keyText: output.goPrivateKey)
        #expect(goSigner.verifier == goVerifier)
        let opened = try SignedNote(opening: output.goSignedNote, verifier: goVerifier)
        #expect(opened.text == output.goNoteText)
        #expect(try Checkpoint(text: opened.text).size == 7)
        #expect(try SignedNote.sign(output.goNoteText, by: goSigner) == output.goSignedNote)
        #expect(throws: NoteError.self) { try SignedNote(opening: output.goSignedNote, verifier: signer.verifier) }
    }
}
