import Foundation
import Testing
@testable import Cryptography

/// Project Wycheproof ECDSA verification vectors, copied unchanged from google/wycheproof
/// (`testvectors_v1/ecdsa_secp256r1_sha256_p1363_test.json`, `…_sha256_test.json`,
/// `ecdsa_secp384r1_sha384_test.json`) into ECDSATestResources. These files hold no "acceptable" cases;
/// were one to appear, the test requires only that verification does not crash and records it.
@Suite struct ECDSAWycheproofTests {
    struct File: Decodable {
        let numberOfTests: Int
        let testGroups: [Group]
    }
    struct Group: Decodable {
        let publicKey: Key
        let sha: String
        let tests: [Case]
    }
    struct Key: Decodable { let uncompressed: String; let curve: String }
    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let msg: String
        let sig: String
        let result: String
    }

    static func load(_ name: String) throws -> File {
        try JSONDecoder().decode(File.self, from: ECDSATestResources.data(name))
    }

    /// Runs every case through `verify` and returns (count, failures as "tcId comment").
    static func run(_ file: File, verify: (Key, [UInt8], [UInt8]) -> Bool) -> (count: Int, failures: [String]) {
        var count = 0
        var failures = [String]()
        for group in file.testGroups {
            for test in group.tests {
                count += 1
                let accepted = verify(group.publicKey, ECDSAHex.bytes(test.msg), ECDSAHex.bytes(test.sig))
                switch test.result {
                case "valid" where !accepted: failures.append("tcId \(test.tcId) (\(test.comment)): valid but refused")
                case "invalid" where accepted: failures.append("tcId \(test.tcId) (\(test.comment)): invalid but accepted")
                default: break
                }
            }
        }
        return (count, failures)
    }

    @Test("P-256 SHA-256 raw r‖s (P1363) vectors: every valid accepted, every invalid refused")
    func p256P1363() throws {
        let file = try Self.load("ecdsa_secp256r1_sha256_p1363_test.json")
        let result = Self.run(file) { key, message, signature in
            guard let publicKey = try? P256.PublicKey(uncompressedRepresentation: ECDSAHex.bytes(key.uncompressed)) else { return false }
            return publicKey.isValidSignature(rawSignature: signature, message: message)
        }
        #expect(result.count == file.numberOfTests)
        #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
    }

    @Test("P-256 SHA-256 DER vectors: every valid accepted, every invalid refused")
    func p256DER() throws {
        let file = try Self.load("ecdsa_secp256r1_sha256_test.json")
        let result = Self.run(file) { key, message, signature in
            guard let publicKey = try? P256.PublicKey(uncompressedRepresentation: ECDSAHex.bytes(key.uncompressed)) else { return false }
            do { try publicKey.verify(derSignature: signature, message: message); return true } catch { return false }
        }
        #expect(result.count == file.numberOfTests)
        #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
    }

    @Test("P-256 SHA-256 DER vectors through the generic curve code agree as well")
    func p256DERGeneric() throws {
        let file = try Self.load("ecdsa_secp256r1_sha256_test.json")
        let curve = ECDSA.WeierstrassCurve.p256
        let result = Self.run(file) { key, message, signature in
            let bytes = ECDSAHex.bytes(key.uncompressed)
            guard bytes.count == 65,
                  let x = curve.field.canonical(bigEndian: bytes[1..<33]),
                  let y = curve.field.canonical(bigEndian: bytes[33..<65]),
                  let parsed = try? ECDSA.Signature(derEncoded: signature) else { return false }
            do {
                try curve.verify(parsed, digest: SHA256.hash(message).bytes, x: curve.field.toMontgomery(x), y: curve.field.toMontgomery(y))
                return true
            } catch { return false }
        }
        #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
    }

    @Test("P-384 SHA-384 DER vectors: every valid accepted, every invalid refused")
    func p384DER() throws {
        let file = try Self.load("ecdsa_secp384r1_sha384_test.json")
        let result = Self.run(file) { key, message, signature in
            guard let publicKey = try? P384.PublicKey(uncompressedRepresentation: ECDSAHex.bytes(key.uncompressed)) else { return false }
            do { try publicKey.verify(derSignature: signature, message: message); return true } catch { return false }
        }
        #expect(result.count == file.numberOfTests)
        #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
    }
}
