import Testing
@testable import Cryptography

/// Public key and signature encodings: what is accepted, and the reason each malformed one is refused.
@Suite struct ECDSAEncodingTests {
    static let keyHex = "042927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838c7787964eaac00e5921fb1498a60f4606766b3d9685001558d1a974e7341513e"

    @Test("A valid uncompressed key round-trips; wrong length, prefix, range and off-curve points are refused")
    func publicKeys() throws {
        let bytes = ECDSAHex.bytes(Self.keyHex)
        let key = try P256.PublicKey(uncompressedRepresentation: bytes)
        #expect(key.uncompressedRepresentation == bytes)
        #expect(throws: ECDSAError.publicKeyLength(curve: "P-256", actual: 64, expected: 65)) {
            try P256.PublicKey(uncompressedRepresentation: Array(bytes.dropLast()))
        }
        #expect(throws: ECDSAError.publicKeyNotUncompressed(curve: "P-256", firstByte: 0x02)) {
            try P256.PublicKey(uncompressedRepresentation: [0x02] + bytes.dropFirst())
        }
        #expect(throws: ECDSAError.publicKeyNotUncompressed(curve: "P-256", firstByte: nil)) {
            try P256.PublicKey(uncompressedRepresentation: [])
        }
        #expect(throws: ECDSAError.coordinateOutOfRange(curve: "P-256", coordinate: "x")) {
            try P256.PublicKey(uncompressedRepresentation: [0x04] + P256.primeBytes + bytes[33...])
        }
        #expect(throws: ECDSAError.coordinateOutOfRange(curve: "P-256", coordinate: "y")) {
            try P256.PublicKey(uncompressedRepresentation: Array(bytes[..<33]) + [UInt8](repeating: 0xff, count: 32))
        }
        var offCurve = bytes
        offCurve[64] ^= 1
        #expect(throws: ECDSAError.pointNotOnCurve(curve: "P-256")) { try P256.PublicKey(uncompressedRepresentation: offCurve) }
        #expect(throws: ECDSAError.pointNotOnCurve(curve: "P-256")) {
            try P256.PublicKey(uncompressedRepresentation: [UInt8](repeating: 0, count: 65).enumerated().map { $0.offset == 0 ? 4 : $0.element })
        }
    }

    @Test("DER signatures: strict forms accepted, BER and malformed integers refused with a reason")
    func derSignatures() throws {
        let ok = try ECDSA.Signature(derEncoded: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x7f])
        #expect(ok.r == [0x01] && ok.s == [0x7f])
        let high = try ECDSA.Signature(derEncoded: [0x30, 0x07, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x01])
        #expect(high.r == [0x80])
        let refused: [(String, [UInt8])] = [
            ("indefinite", [0x30, 0x80, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00, 0x00]),
            ("non-minimal length", [0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("trailing byte", [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]),
            ("extra inside", [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]),
            ("negative r", [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01]),
            ("superfluous zero", [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01]),
            ("empty integer", [0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x01]),
            ("wrong tag", [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("length past end", [0x30, 0x06, 0x02, 0x09, 0x01, 0x02, 0x01, 0x01]),
            ("huge length", [0x30, 0x84, 0xff, 0xff, 0xff, 0xff]),
            ("empty", []),
        ]
        for (name, bytes) in refused {
            #expect(throws: ECDSAError.self, "\(name)") { try ECDSA.Signature(derEncoded: bytes) }
        }
        #expect(throws: ECDSAError.self) { try ECDSA.Signature(rawRS: [1, 2, 3]) }
    }

    @Test("Raw signatures must be exactly 64 bytes; r and s must lie in 1…n−1")
    func rawSignatureRanges() throws {
        let key = try P256.PublicKey(uncompressedRepresentation: ECDSAHex.bytes(Self.keyHex))
        let one = [UInt8](repeating: 0, count: 31) + [1]
        #expect(throws: ECDSAError.signatureLength(curve: "P-256", actual: 62, expected: 64)) {
            try key.verify(rawSignature: Array(one.dropFirst()) + Array(one.dropFirst()), message: [])
        }
        #expect(throws: ECDSAError.componentOutOfRange(curve: "P-256", component: "r", reason: "zero")) {
            try key.verify(rawSignature: [UInt8](repeating: 0, count: 32) + one, message: [])
        }
        #expect(throws: ECDSAError.componentOutOfRange(curve: "P-256", component: "s", reason: "not below the group order n")) {
            try key.verify(rawSignature: one + P256.orderBytes, message: [])
        }
        #expect(throws: ECDSAError.signatureMismatch(curve: "P-256")) { try key.verify(rawSignature: one + one, message: []) }
    }

    @Test("2,000 seeded random keys and signatures through decoding and verification: no crash, nothing accepted")
    func randomInputs() throws {
        var random = ECDSATestRandom(seed: 0xf0220256)
        let key = try P256.PublicKey(uncompressedRepresentation: ECDSAHex.bytes(Self.keyHex))
        var accepted = 0
        for i in 0..<2_000 {
            let bytes = random.bytes(Int(random.next() % 80))
            _ = try? P256.PublicKey(uncompressedRepresentation: [0x04] + bytes)
            _ = try? P384.PublicKey(uncompressedRepresentation: [0x04] + bytes)
            _ = try? ECDSA.Signature(derEncoded: [0x30, UInt8(bytes.count)] + bytes)
            if i % 20 == 0, key.isValidSignature(rawSignature: random.bytes(64), message: bytes) { accepted += 1 }
        }
        #expect(accepted == 0, "seed 0xf0220256")
    }
}
