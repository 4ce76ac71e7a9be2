import Foundation
import Testing
import Cryptography
@testable import Transparency

/// Published signed-note vectors: the example of C2SP signed-note (c2sp.org/signed-note,
/// github.com/C2SP/C2SP signed-note.md) and Go's golang.org/x/mod/sumdb/note note_test.go
/// (TestSign, TestOpen; BSD licence).
@Suite struct SignedNoteVectors {
    static let peterPrivate = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
    static let peterVerifier = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
    static let enochVerifier = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
    static let text = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
    static let peterSig = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
    static let enochSig = "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n"

    @Test("C2SP's example verifier key opens its example note")
    func c2spExample() throws {
        let verifier = try NoteVerifier(keyText: "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")
        let note = "This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
        let opened = try SignedNote(opening: note, verifier: verifier)
        #expect(opened.text == "This is an example message.\n")
        #expect(verifier.keyHash == 0x530d_903a)
        #expect(verifier.keyText == "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")
    }

    @Test("Go's PeterNeumann key: the private key text gives the verifier key, and signing gives Go's note byte for byte")
    func goSign() throws {
        let signer = try NoteSigner(keyText: Self.peterPrivate)
        #expect(signer.verifierKeyText == Self.peterVerifier)
        #expect(signer.keyText == Self.peterPrivate)
        #expect(try SignedNote.sign(Self.text, by: signer) == Self.text + "\n" + Self.peterSig)
    }

    @Test("Go's TestOpen: Peter's signature verifies, Enoch's (unknown key) is kept unverified, repeats are skipped")
    func goOpen() throws {
        let peter = try NoteVerifier(keyText: Self.peterVerifier)
        let note = try SignedNote(opening: Self.text + "\n" + Self.peterSig + Self.enochSig, verifier: peter)
        #expect(note.text == Self.text)
        #expect(note.verified.name == "PeterNeumann" && note.verified.keyHash == 0xc74f_20a3)
        #expect(note.others.map(\.name) == ["EnochRoot"])
        let repeated = try SignedNote(opening: Self.text + "\n" + Self.peterSig + Self.peterSig + Self.enochSig + Self.enochSig, verifier: peter)
        #expect(repeated.others.count == 1)
        // Opened with Enoch's key instead, Enoch's line is the verified one.
        let enoch = try NoteVerifier(keyText: Self.enochVerifier)
        #expect(try SignedNote(opening: Self.text + "\n" + Self.peterSig + Self.enochSig, verifier: enoch).verified.name == "EnochRoot")
    }

    @Test("Go's malformed notes are refused as malformed")
    func goBadMessages() throws {
        let peter = try NoteVerifier(keyText: Self.peterVerifier)
        let bad: [[UInt8]] = [
            Array(Self.text.utf8),
            Array((Self.text + "\n").utf8),
            Array((Self.text + "\n" + Self.peterSig.dropLast()).utf8),
            Array(("\u{01}" + Self.text + "\n" + Self.peterSig).utf8),
            [0xff] + Array((Self.text + "\n" + Self.peterSig).utf8),
            Array((Self.text + "\n" + "— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=").utf8),
            Array((Self.text + "\n" + Self.peterSig + "Unexpected line.\n").utf8),
        ]
        for (i, message) in bad.enumerated() {
            #expect(throws: NoteError.self, "bad message \(i)") { try SignedNote(opening: message, verifier: peter) }
            do {
                _ = try SignedNote(opening: message, verifier: peter)
            } catch {
                #expect(error.kind == .malformedNote, "bad message \(i): \(error)")
            }
        }
    }

    @Test("Go's bad verifier keys are refused")
    func goBadKeys() {
        for key in ["PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",
                    "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                    "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",
                    "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                    "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                    "+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                    "PeterNeumann+c74f20a+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                    "PeterNeumann+c74f20a3",
                    ""] {
            #expect(throws: NoteError.self, "\(key)") { try NoteVerifier(keyText: key) }
        }
        #expect(throws: NoteError.self) { try NoteSigner(keyText: "PRIVATE+KEY+PeterNeumann+c74f20a4+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz") }
        #expect(throws: NoteError.self) { try NoteSigner(keyText: "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDF=") }
        #expect(throws: NoteError.self) { try NoteSigner(keyText: "PRIVATE+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz") }
    }

    @Test("A signing key given where a verifier key is expected is refused as such")
    func aSigningKeyIsNotAVerifierKey() {
        let error = #expect(throws: NoteError.self) {
            try NoteVerifier(keyText: "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz")
        }
        #expect(error.map { "\($0)" }?.contains("signing (private) key") == true, "\(String(describing: error))")
    }
}

@Suite struct SignedNoteRules {
    static let signer: NoteSigner = {
        // A fixed seed: the tests below need no randomness.
        guard let key = Ed25519.PrivateKey(seed: [UInt8](repeating: 0x42, count: 32)),
              let signer = try? NoteSigner(name: "ledger.example/log", privateKey: key) else {
            preconditionFailure("a 32-byte seed and a valid name make a signer")
        }
        return signer
    }()

    @Test("a generated key's text forms parse back to the same key, and its notes open")
    func generatedKeys() throws {
        let signer = try NoteSigner.generate(name: "ledger.example/log")
        let again = try NoteSigner(keyText: signer.keyText)
        #expect(again.verifier == signer.verifier)
        #expect(signer.keyText.hasPrefix("PRIVATE+KEY+ledger.example/log+"))
        let verifier = try NoteVerifier(keyText: signer.verifierKeyText)
        let note = try SignedNote.sign("hello\n", by: again)
        #expect(try SignedNote(opening: note, verifier: verifier).text == "hello\n")
    }

    @Test("text with several lines, empty lines and non-ASCII round-trips; the last blank line splits")
    func roundTrips() throws {
        for text in ["a\n", "a\n\nb\n", "ünïcödé — text\nline two\n", "\n", "x\n\n\n"] {
            let note = try SignedNote.sign(text, by: Self.signer)
            #expect(try SignedNote(opening: note, verifier: Self.signer.verifier).text == text)
        }
    }

    @Test("signing refuses text without a final newline or with control characters")
    func unsignable() {
        #expect(throws: NoteError.self) { try SignedNote.sign("no newline", by: Self.signer) }
        #expect(throws: NoteError.self) { try SignedNote.sign("tab\there\n", by: Self.signer) }
        #expect(throws: NoteError.self) { try SignedNote.sign("", by: Self.signer) }
    }

    @Test("each broken note is refused with its reason")
    func refusals() throws {
        let good = try SignedNote.sign("origin\n1\n", by: Self.signer)
        let other = try NoteSigner(name: "ledger.example/log", privateKey: #require(Ed25519.PrivateKey(seed: [UInt8](repeating: 1, count: 32))))
        let signedByOther = try SignedNote.sign("origin\n1\n", by: other)
        let verifier = Self.signer.verifier
        func kind(_ note: String) -> NoteError.Kind? {
            do {
                _ = try SignedNote(opening: note, verifier: verifier)
                return nil
            } catch {
                return error.kind
            }
        }
        #expect(kind(good) == nil)
        #expect(kind(good.replacingOccurrences(of: "origin\n1", with: "origin\n2")) == .invalidSignature)
        #expect(kind(signedByOther) == .notSigned, "another key of the same name has another key hash")
        #expect(kind(good + "— other.example/key AAAAAAA=\n") == nil, "an unknown key's line is ignored")
        #expect(kind(good.replacingOccurrences(of: "— ", with: "- ")) == .malformedNote)
        #expect(kind("origin\r\n1\n\n" + good.components(separatedBy: "\n\n")[1]) == .malformedNote)
        #expect(kind(good + "— other.example/key AAAA\n") == .malformedNote, "a signature of fewer than five bytes")
        #expect(kind(good + "— other.example/key AAAAAA==\n") == .malformedNote, "four bytes only")
        #expect(kind(good + "— other.example/key AAAAAAB=\n") == .malformedNote, "non-canonical base64")
        #expect(kind(good + "— other.example/key\n") == .malformedNote, "no base64")
        #expect(kind(good + "— a+b AAAAAAA=\n") == .malformedNote, "a '+' in the name")
        let many = good + String(repeating: "— other.example/key AAAAAAA=\n", count: 100)
        #expect(kind(many) == .malformedNote, "over 100 signatures")
        // Truncated or padded signature bytes under the right key name and hash.
        let line = good.components(separatedBy: "\n\n")[1]
        let encoded = String(line.dropFirst("— ledger.example/log ".count).dropLast())
        let decoded = try #require(Base64.decode(encoded))
        for changed in [Array(decoded.dropLast()), decoded + [0]] {
            let note = "origin\n1\n\n— ledger.example/log \(Base64.encode(changed))\n"
            #expect(kind(note) == .invalidSignature)
        }
    }
}
