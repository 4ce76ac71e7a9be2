import Foundation
import EventStore
import LogProofs
import Projections
import Transparency
import Platform
import Ingest
import Reports

/// Auditors' proofs: keygen, checkpoint, prove, check-proof (docs/proofs.md).
enum ProofCommands {
    static let keygen = CommandSpec(
        name: "keygen", summary: "write an Ed25519 signing key (FILE) and its verifier key (FILE.pub) for signing checkpoints",
        positionals: nil, options: [OptionSpec(name: "--name", value: "NAME", help: "the key's name: the checkpoints' origin line (e.g. example.com/ledger)"),
                                    OptionSpec(name: "--out", value: "FILE", help: "where the signing key goes (never overwritten; readable by its owner only); the verifier key goes to FILE.pub")],
        details: """
            The keys are in the text forms of Go's golang.org/x/mod/sumdb/note: FILE holds PRIVATE+KEY+NAME+HASH+KEY
            (keep it secret), FILE.pub holds NAME+HASH+KEY (publish it: auditors check proofs with it alone).
            """
    ) { a in
        guard let name = a.value("--name") else { throw ToolError.usage("keygen needs --name NAME") }
        guard let out = a.value("--out") else { throw ToolError.usage("keygen needs --out FILE") }
        guard out != "-" else { throw ToolError.usage("--out must name a file: the signing key and FILE.pub are two files") }
        guard NoteVerifier.isValidKeyName(name) else {
            throw ToolError.usage("--name '\(name)' is not a key name (non-empty, no spaces, no '+', printable)")
        }
        for path in [out, out + ".pub"] where PlatformPath.kind(path) != .missing {
            throw ToolError.input("\(path) exists: keygen never replaces a key")
        }
        try Common.checkOutput(out)
        let signer = try NoteSigner.generate(name: name)
        // The signing key is created readable by its owner only.
        let previous = umask(0o077)
        defer { umask(previous) }
        try Common.writeOutput(Array((signer.keyText + "\n").utf8), to: out, what: "the signing key")
        umask(previous)
        try Common.writeOutput(Array((signer.verifierKeyText + "\n").utf8), to: out + ".pub", what: "the verifier key")
        Console.out("signing key:  \(out) (secret)\nverifier key: \(out).pub: \(signer.verifierKeyText)\n")
        return 0
    }

    static let checkpoint = CommandSpec(
        name: "checkpoint", summary: "print a signed checkpoint (C2SP tlog-checkpoint) of the log's committed head, with its user index",
        positionals: nil, options: [Common.log, OptionSpec(name: "--key", value: "FILE", help: "the signing key (from keygen); its name is the origin")],
        details: """
            Brings DIR/proofs (the Merkle tree's stored hashes, the user index as of this size) up to the head first,
            reading only what was appended since. Keep the output: prove and check-proof take it as --checkpoint FILE.
            """
    ) { a in
        guard let keyPath = a.value("--key") else { throw ToolError.usage("checkpoint needs --key FILE") }
        let keyText = try readKeyText(keyPath)
        let signer: NoteSigner
        do { signer = try NoteSigner(keyText: keyText) } catch { throw ToolError.input("\(keyPath): not a signing key: \(error)") }
        // A checkpoint is signed only over a log whose end reads back sound: its last segment is
        // checked at open, as other commands check it (a few milliseconds at 16 MiB).
        let store = try openStore(a, checksLastSegment: true)
        let signed = try proofs(store) { try store.checkpoint(signer: signer) }
        Console.out(signed)
        return 0
    }

    static let prove = CommandSpec(
        name: "prove", summary: "print (JSON) a user's records with inclusion proofs and completeness, or a consistency proof between two checkpoints",
        positionals: nil, options: [Common.log, OptionSpec(name: "--user", value: "U", help: "the user whose whole history is proved"),
                                    OptionSpec(name: "--checkpoint", value: "FILE", help: "the signed checkpoint the proof is for (from checkpoint)"),
                                    OptionSpec(name: "--consistency", value: nil, help: "prove that the log of --checkpoint extends that of --from"),
                                    OptionSpec(name: "--from", value: "FILE", help: "with --consistency: the earlier signed checkpoint"),
                                    OptionSpec(name: "--out", value: "FILE", help: "write the proof to FILE (a regular file) instead of standard output (-)")],
        details: """
            prove --user U --checkpoint FILE: {\"checkpoint\",\"size\",\"user\",\"records\":[{\"index\",\"line\",\"inclusion\"}],\"completeness\"}:
            every record of U among the checkpoint's first size records (line: the record's export line), each with its
            RFC 9162 inclusion path, and U's user index entry with its path (or, for a user with no records, a proof of absence: the path to
            the empty place where U's entry would be, or to the one other user's entry that holds it).
            prove --consistency --from OLD --checkpoint NEW: {\"from\",\"to\",\"proof\"}, the RFC 9162 consistency proof.
            A checkpoint whose root or user index is not this log's is refused (exit 1).
            """
    ) { a in
        guard let checkpointPath = a.value("--checkpoint") else { throw ToolError.usage("prove needs --checkpoint FILE") }
        let out = a.value("--out") ?? "-"
        if out != "-" { try Common.checkOutput(out) }
        let bytes: [UInt8]
        if a.has("--consistency") {
            guard let fromPath = a.value("--from") else { throw ToolError.usage("prove --consistency needs --from FILE") }
            guard a.value("--user") == nil else { throw ToolError.usage("prove takes --user or --consistency, not both") }
            let old = try readText(fromPath, what: "checkpoint"), new = try readText(checkpointPath, what: "checkpoint")
            let store = try openStore(a)
            bytes = try proofs(store) { try store.consistencyProof(from: old, to: new) }.jsonBytes
        } else {
            guard let user = a.value("--user") else { throw ToolError.usage("prove needs --user U (or --consistency --from FILE)") }
            guard a.value("--from") == nil else { throw ToolError.usage("--from goes with --consistency") }
            try Common.checkUser(user)
            let signed = try readText(checkpointPath, what: "checkpoint")
            let store = try openStore(a)
            bytes = try proofs(store) { try store.userProof(user: user, signedCheckpoint: signed) }.jsonBytes
        }
        if out == "-" {
            Console.out(String(decoding: bytes, as: UTF8.self) + "\n")
        } else {
            try Common.writeOutput(bytes + [0x0A], to: out, what: "the proof")
        }
        return 0
    }

    static let checkProof = CommandSpec(
        name: "check-proof", summary: "check a prove output offline with the verifier key alone; exit 1 naming the first check that failed",
        positionals: "PROOF.json", options: [OptionSpec(name: "--verifier", value: "FILE.pub", help: "the log's verifier key (from keygen)"),
                                             OptionSpec(name: "--checkpoint", value: "FILE", help: "the checkpoint you trust: a user proof must be for it; with --from, the later checkpoint"),
                                             OptionSpec(name: "--from", value: "FILE", help: "check a consistency proof from this earlier checkpoint to --checkpoint")],
        details: """
            Reads nothing of the log. A user proof: the checkpoint's signature by the verifier key and its origin (the key's
            name), then each record (in log order, below the size, the proof's user's line, its inclusion path), then the user
            index entry (or the absence) and that its count and chain hash are those of the records shown: none missing,
            added, changed or reordered. A consistency proof (--from OLD --checkpoint NEW): both signatures and the RFC 9162
            proof that the log of NEW extends that of OLD. PROOF.json - reads standard input.
            """
    ) { a in
        guard let verifierPath = a.value("--verifier") else { throw ToolError.usage("check-proof needs --verifier FILE.pub") }
        guard a.positionals.count == 1, let proofPath = a.positionals.first else { throw ToolError.usage("check-proof takes one PROOF.json") }
        if a.value("--from") != nil && a.value("--checkpoint") == nil { throw ToolError.usage("--from needs --checkpoint FILE (the later checkpoint)") }
        let checker: ProofChecker
        do { checker = try ProofChecker(verifierKey: try readKeyText(verifierPath)) } catch let failure as ProofCheckFailure {
            throw ToolError.input("\(verifierPath): \(failure.description)")
        }
        let proof = try readBytes(proofPath, what: "proof")
        do {
            if let fromPath = a.value("--from"), let toPath = a.value("--checkpoint") {
                let old = try readText(fromPath, what: "checkpoint"), new = try readText(toPath, what: "checkpoint")
                try checker.checkConsistency(old: old, new: new, proofJSON: proof)
                let from = try checker.openCheckpoint(old), to = try checker.openCheckpoint(new)
                try checkOrigin(from, checker.verifier)
                try checkOrigin(to, checker.verifier)
                Console.out("ok: the log \(to.origin) at size \(to.size) extends itself at size \(from.size) (consistency proof checked)\n")
            } else {
                let expected = try a.value("--checkpoint").map { try readText($0, what: "checkpoint") }
                let checked = try checker.check(userProofJSON: proof, expectedCheckpoint: expected, userOfLine: ExportLine.user(ofLine:))
                try checkOrigin(checked.checkpoint, checker.verifier)
                Console.out("ok: \(checked.user) has \(checked.records) record(s) among the first \(checked.checkpoint.size) of \(checked.checkpoint.origin), all of them shown\n")
            }
        } catch let failure as ProofCheckFailure {
            throw ToolError.input(failure.description)
        }
        return 0
    }

    /// A checkpoint's origin must be the verifier key's name (C2SP tlog-checkpoint: SHOULD).
    static func checkOrigin(_ checkpoint: Checkpoint, _ verifier: NoteVerifier) throws {
        guard checkpoint.origin.utf8.elementsEqual(verifier.name.utf8) else {
            throw ProofCheckFailure(.checkpoint, "the origin '\(checkpoint.origin)' is not the verifier key's name '\(verifier.name)'")
        }
    }

    /// The log's proof files, up to date with its committed head. For `prove` the log's last
    /// segment is not read again at open: the records a proof reads are checked as they are read
    /// (CRC32C, chain links), and every proof is checked against the checkpoint's roots before it
    /// is printed. `checkpoint` reads it again (`checksLastSegment`), so that a log damaged at its
    /// end is not signed.
    static func openStore(_ a: ParsedArguments, checksLastSegment: Bool = false) throws -> ProofStore {
        try ProofStore(log: try Common.openLog(a, checksLastSegment: checksLastSegment))
    }

    /// Runs `body` against `store`, reporting on standard error any derived file built again.
    static func proofs<T>(_ store: ProofStore, _ body: () throws -> T) throws -> T {
        defer { for note in store.notes { Console.err("replay-tool: \(OneLine.escaped(note))") } }
        do {
            return try body()
        } catch let e as ProofStoreError {
            throw ToolError.input(e.message)
        }
    }

    /// A key file's text without its final newline.
    static func readKeyText(_ path: String) throws -> String {
        var text = try readText(path, what: "key")
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// A whole text file (a checkpoint, a key) read as it is.
    static func readText(_ path: String, what: String) throws -> String {
        String(decoding: try readBytes(path, what: what), as: UTF8.self)
    }

    /// A whole file (`-`: standard input), at most 256 MiB.
    static func readBytes(_ path: String, what: String) throws -> [UInt8] {
        let limit = 256 << 20
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard data.count <= limit else { throw ToolError.input("<stdin>: the \(what) is over 256 MiB") }
            return [UInt8](data)
        }
        try InputFile.check(path)
        let input = try InputFile(path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            guard bytes.count <= limit else { throw ToolError.input("\(path): the \(what) is over 256 MiB") }
        }
        return bytes
    }
}
