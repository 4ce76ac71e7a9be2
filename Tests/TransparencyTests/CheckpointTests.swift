import Testing
import Cryptography
@testable import Transparency

@Suite struct CheckpointFormat {
    static let root = SHA256.hash(Array("root".utf8))

    @Test("C2SP's example checkpoint text parses: origin, size, root")
    func c2spExample() throws {
        let checkpoint = try Checkpoint(text: "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n")
        #expect(checkpoint.origin == "example.com/behind-the-sofa")
        #expect(checkpoint.size == 20_852_163)
        #expect(Base64.encode(checkpoint.root.bytes) == "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
        #expect(checkpoint.extensions.isEmpty)
        #expect(try checkpoint.userIndexHead() == nil)
    }

    @Test("a checkpoint with a user-smt line round-trips through its text")
    func roundTrip() throws {
        let head = UserIndexHead(entries: 3, root: SHA256.hash([1]))
        let checkpoint = Checkpoint(origin: "ledger.example/log", size: 42, root: Self.root, userIndex: head, extensions: ["other extension"])
        #expect(checkpoint.text.hasPrefix("ledger.example/log\n42\n"))
        let parsed = try Checkpoint(text: checkpoint.text)
        #expect(parsed == checkpoint)
        #expect(try parsed.userIndexHead() == head)
        #expect(checkpoint.extensions[0] == "user-smt 3 \(Base64.encode(head.root.bytes))")
    }

    @Test("each malformed checkpoint text is refused at its line")
    func refusals() {
        let rootText = Base64.encode(Self.root.bytes)
        let cases: [(String, Int)] = [
            ("o\n1\n\(rootText)", 0),                      // no final newline
            ("o\n1\n", 0),                                 // two lines
            ("\n1\n\(rootText)\n", 1),                     // empty origin
            ("o\n01\n\(rootText)\n", 2),                   // leading zero
            ("o\n+1\n\(rootText)\n", 2),
            ("o\n-1\n\(rootText)\n", 2),
            ("o\n 1\n\(rootText)\n", 2),
            ("o\n18446744073709551616\n\(rootText)\n", 2),  // 2^64
            ("o\n99999999999999999999999\n\(rootText)\n", 2),
            ("o\n1\n\(rootText.dropLast())\n", 3),          // not base64
            ("o\n1\n\(Base64.encode(Array(Self.root.bytes.dropLast())))\n", 3),   // 31 bytes
            ("o\n1\n\(Base64.encode(Self.root.bytes + [0]))\n", 3),             // 33 bytes
            ("o\n1\n\(rootText)\n\n", 4),                  // empty extension line
            ("o\n1\n\(rootText)\nuser-smt 1\n", 4),
            ("o\n1\n\(rootText)\nuser-smt 01 \(rootText)\n", 4),
            ("o\n1\n\(rootText)\nuser-smt 1 \(rootText) x\n", 4),
            ("o\n1\n\(rootText)\nuser-smt 1 \(rootText)\nuser-smt 1 \(rootText)\n", 5),
        ]
        for (text, line) in cases {
            do {
                _ = try Checkpoint(text: text)
                Issue.record("accepted \(text.debugDescription)")
            } catch {
                #expect(error.line == line, "\(text.debugDescription): \(error)")
            }
        }
        #expect(throws: Never.self) { try Checkpoint(text: "o\n0\n\(rootText)\n") }
        #expect(throws: Never.self) { try Checkpoint(text: "o\n18446744073709551615\n\(rootText)\n") }
    }

    @Test("signing refuses a checkpoint whose origin holds a newline")
    func unsignable() throws {
        let signer = try NoteSigner(name: "k", privateKey: #require(Ed25519.PrivateKey(seed: [UInt8](repeating: 3, count: 32))))
        #expect(throws: CheckpointError.self) { try Checkpoint(origin: "a\nb", size: 1, root: Self.root).signed(by: signer) }
        #expect(throws: CheckpointError.self) { try Checkpoint(origin: "", size: 1, root: Self.root).signed(by: signer) }
        let note = try Checkpoint(origin: "k", size: 1, root: Self.root).signed(by: signer)
        #expect(try Checkpoint(text: SignedNote(opening: note, verifier: signer.verifier).text).size == 1)
    }
}
