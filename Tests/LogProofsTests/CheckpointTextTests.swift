import Testing
import Cryptography
import Transparency
@testable import LogProofs

/// `CheckpointText.unverified`: a signed checkpoint's text is split at its last blank line and
/// parsed back to the checkpoint that was signed; each malformed line is refused naming it and why.
@Suite struct CheckpointTextParsing {
    static let signer: NoteSigner = {
        // A fixed seed: the same key every run.
        try! NoteSigner(name: "ledger.test/log", privateKey: Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32))!)
    }()
    static let root = SHA256.hash(Array("root".utf8)), indexRoot = SHA256.hash(Array("index".utf8))

    /// A note of `text` with a signature line as `signed` writes one (the text is not checked by this reader).
    static func note(_ text: String) throws -> String {
        let signed = try Checkpoint(origin: "o", size: 1, root: root).signed(by: signer)
        let signature = signed[signed.range(of: "\n\n")!.upperBound...]
        return text + "\n" + signature
    }

    @Test("a checkpoint written and signed parses back to itself, its user-smt line included")
    func roundTrip() throws {
        for size: UInt64 in [0, 1, 17, .max] {
            let checkpoint = Checkpoint(origin: Self.signer.name, size: size, root: Self.root,
                                        userIndex: UserIndexHead(entries: size / 2, root: Self.indexRoot), extensions: ["other ext"])
            let parsed = try CheckpointText.unverified(try checkpoint.signed(by: Self.signer))
            #expect(parsed == checkpoint)
            #expect(try parsed.userIndexHead() == UserIndexHead(entries: size / 2, root: Self.indexRoot))
        }
        let plain = try CheckpointText.unverified(try Checkpoint(origin: "o", size: 3, root: Self.root).signed(by: Self.signer))
        #expect(try plain.userIndexHead() == nil && plain.size == 3)
    }

    @Test("each malformed line is refused naming the line and why", arguments: [
        ("o\n007\nROOT\n", "line 2: tree size \"007\""),
        ("o\n18446744073709551616\nROOT\n", "line 2: tree size"),
        ("o\n-1\nROOT\n", "line 2: tree size"),
        ("o\n3\nnot base64!\n", "line 3: root hash"),
        ("o\n3\n" + Base64.encode([UInt8](repeating: 1, count: 31)) + "\n", "line 3: root hash"),
        ("o\n3\n", "has 2 lines"),
        ("\n3\nROOT\n", "line 1: is empty"),
        ("o\n3\nROOT\nuser-smt 1\n", "line 4: user-smt line"),
        ("o\n3\nROOT\nuser-smt 01 ROOT\n", "line 4: user-smt line"),
        ("o\n3\nROOT\nuser-smt 1 ROOT\nuser-smt 2 ROOT\n", "line 5: a second user-smt line"),
    ])
    func malformedLines(text: String, says: String) throws {
        let rooted = text.replacingOccurrences(of: "ROOT", with: Base64.encode(Self.root.bytes))
        do {
            let parsed = try CheckpointText.unverified(try Self.note(rooted))
            Issue.record("accepted \(rooted.debugDescription) as \(parsed)")
        } catch let e as ProofStoreError {
            #expect(e.message.hasPrefix("not a checkpoint: checkpoint"), "\(e.message)")
            #expect(e.message.contains(says), "\(e.message)")
        }
    }

    @Test("text with no blank line before signature lines is not a signed checkpoint")
    func noSignatureBlock() {
        for text in ["o\n3\n" + Base64.encode(Self.root.bytes) + "\n", "", "\n", "o"] {
            #expect(throws: ProofStoreError("not a signed checkpoint: no blank line before signature lines")) {
                try CheckpointText.unverified(text)
            }
        }
    }
}
