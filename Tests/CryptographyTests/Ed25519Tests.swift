import Foundation
import Testing
@testable import Cryptography

@Suite struct Ed25519Vectors {
    struct RFCVector: Decodable { var name, secretKey, publicKey, message, signature: String }
    struct RFCFile: Decodable { var vectors: [RFCVector] }

    @Test("RFC 8032 §7.1's vectors: the seed gives the public key and the signature, which verifies")
    func rfc8032() throws {
        let file = try JSONDecoder().decode(RFCFile.self, from: resource("rfc8032_ed25519.json"))
        #expect(file.vectors.count == 5)
        for vector in file.vectors {
            let seed = try #require(bytes(hex: vector.secretKey))
            let message = try #require(bytes(hex: vector.message))
            let key = try #require(Ed25519.PrivateKey(seed: seed))
            #expect(hex(key.publicKey.bytes) == vector.publicKey, "\(vector.name) public key")
            let signature = key.signature(for: message)
            #expect(hex(signature) == vector.signature, "\(vector.name) signature")
            #expect(key.publicKey.isValidSignature(signature, for: message), "\(vector.name) verifies")
            var flipped = signature
            flipped[5] ^= 0x01
            #expect(!key.publicKey.isValidSignature(flipped, for: message), "\(vector.name) with a flipped bit")
            #expect(!key.publicKey.isValidSignature(signature, for: message + [0]), "\(vector.name) with a longer message")
        }
    }

    struct WycheproofFile: Decodable {
        struct Group: Decodable {
            struct Key: Decodable { var pk: String }
            struct Case: Decodable { var tcId: Int; var comment: String; var msg, sig, result: String; var flags: [String] }
            var publicKey: Key
            var tests: [Case]
        }
        var numberOfTests: Int
        var testGroups: [Group]
    }

    @Test("Wycheproof ed25519_test.json: every valid signature accepted, every invalid one refused")
    func wycheproof() throws {
        let file = try JSONDecoder().decode(WycheproofFile.self, from: resource("ed25519_test.json"))
        var count = 0
        for group in file.testGroups {
            let keyBytes = try #require(bytes(hex: group.publicKey.pk))
            let key = Ed25519.PublicKey(bytes: keyBytes)
            for test in group.tests {
                count += 1
                let message = try #require(bytes(hex: test.msg), "tcId \(test.tcId)")
                // Some vectors carry signatures of odd hex length: unparseable, so invalid.
                let accepted = bytes(hex: test.sig).map { key?.isValidSignature($0, for: message) ?? false } ?? false
                #expect(accepted == (test.result == "valid"), "tcId \(test.tcId) (\(test.comment), \(test.flags)) expected \(test.result)")
            }
        }
        #expect(count == file.numberOfTests)
    }
}

@Suite struct Ed25519Strictness {
    static let order: [UInt8] = Array(bytes(hex: "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010") ?? [])

    @Test("S + L (the same S plus the group order) is refused though it satisfies the equation mod L")
    func malleatedScalarRefused() throws {
        let key = try #require(Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32)))
        let message = Array("checkpoint".utf8)
        let signature = key.signature(for: message)
        // S + L as 256-bit little-endian addition (S < L < 2^253, so no overflow).
        var s = Array(signature[32...])
        var carry = 0
        for i in 0..<32 {
            let sum = Int(s[i]) + Int(Self.order[i]) + carry
            s[i] = UInt8(sum & 0xff)
            carry = sum >> 8
        }
        #expect(carry == 0)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(Array(signature[..<32]) + s, for: message))
    }

    @Test("non-canonical and off-curve public keys are refused")
    func badPublicKeys() {
        // y = p (2^255 - 19): non-canonical encoding of y = 0.
        let yIsP = [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
        #expect(Ed25519.PublicKey(bytes: yIsP) == nil)
        // y = 1 with the sign bit set: x = 0 cannot be negative.
        let negativeZero = [1] + [UInt8](repeating: 0, count: 30) + [0x80]
        #expect(Ed25519.PublicKey(bytes: negativeZero) == nil)
        // y = 1, sign clear: the identity, which decodes.
        #expect(Ed25519.PublicKey(bytes: [1] + [UInt8](repeating: 0, count: 31)) != nil)
        // y = 2 has no x on the curve (u/v = 3 / (4d + 1) is not a square).
        #expect(Ed25519.PublicKey(bytes: [2] + [UInt8](repeating: 0, count: 31)) == nil)
        #expect(Ed25519.PublicKey(bytes: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(Ed25519.PublicKey(bytes: [UInt8](repeating: 0, count: 33)) == nil)
    }

    @Test("signatures of the wrong length are refused")
    func wrongLengths() throws {
        let key = try #require(Ed25519.PrivateKey(seed: [UInt8](repeating: 1, count: 32)))
        let signature = key.signature(for: [1, 2, 3])
        #expect(!key.publicKey.isValidSignature(Array(signature.dropLast()), for: [1, 2, 3]))
        #expect(!key.publicKey.isValidSignature(signature + [0], for: [1, 2, 3]))
        #expect(!key.publicKey.isValidSignature([], for: [1, 2, 3]))
        #expect(Ed25519.PrivateKey(seed: [UInt8](repeating: 1, count: 31)) == nil)
    }

    @Test("seeded random keys and messages: signatures verify, and fail under another key or message")
    func randomRoundTrips() throws {
        let seed: UInt64 = 0x5EED_ED25_519
        var random = SplitMix64(seed: seed)
        for round in 0..<12 {
            let keySeed = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
            let message = (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let key = try #require(Ed25519.PrivateKey(seed: keySeed))
            let other = try #require(Ed25519.PrivateKey(seed: keySeed.map { $0 ^ 0x55 }))
            let signature = key.signature(for: message)
            #expect(key.publicKey.isValidSignature(signature, for: message), "seed \(seed) round \(round)")
            #expect(!other.publicKey.isValidSignature(signature, for: message), "seed \(seed) round \(round)")
            #expect(!key.publicKey.isValidSignature(signature, for: message + [1]), "seed \(seed) round \(round)")
            // A key decoded from its bytes is the same key.
            #expect(Ed25519.PublicKey(bytes: key.publicKey.bytes) == key.publicKey)
        }
    }

    @Test("generated keys are fresh: two calls give different seeds that sign and verify")
    func generatedKeys() throws {
        let a = try Ed25519.PrivateKey.generate()
        let b = try Ed25519.PrivateKey.generate()
        #expect(a.seed != b.seed)
        #expect(a.publicKey.isValidSignature(a.signature(for: [9]), for: [9]))
    }
}

@Suite struct SecureRandomBytes {
    @Test("any count is served, past getentropy's 256-byte limit, and two draws differ")
    func counts() throws {
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
        let a = try SecureRandom.bytes(count: 300), b = try SecureRandom.bytes(count: 300)
        #expect(a.count == 300 && b.count == 300)
        #expect(a != b)
        // 300 bytes all zero would mean the buffer was never filled.
        #expect(a.contains { $0 != 0 } && a[256...].contains { $0 != 0 })
    }
}
