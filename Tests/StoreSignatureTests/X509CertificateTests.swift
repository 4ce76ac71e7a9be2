import Cryptography
import Testing
@testable import StoreSignature

/// Parsing Apple's real certificates (Resources/apple-chains) field by field, and the timestamp text.
@Suite struct X509CertificateTests {
    @Test("Apple's receipt-signing leaf: serial, dates, key, extensions and algorithm as openssl reports them")
    func appleLeaf() throws {
        let leaf = try X509Certificate(der: try Resources.bytes("apple-chains/real-leaf.der"))
        let intermediate = try X509Certificate(der: try Resources.bytes("apple-chains/real-intermediate.der"))
        #expect(leaf.serialNumber == [0x47, 0xc2, 0x87, 0xcd, 0xd9, 0xf9, 0xe7, 0x86, 0x7f, 0x52, 0x8a, 0xda, 0x74, 0xdc, 0x7d, 0xb7])
        #expect(UTCTimestamp.iso8601(milliseconds: leaf.notBefore) == "2025-09-19T19:44:51.000Z")
        #expect(UTCTimestamp.iso8601(milliseconds: leaf.notAfter) == "2027-10-13T17:47:23.000Z")
        #expect(leaf.publicKey.curveName == "P-256")
        #expect(leaf.signatureAlgorithm == .ecdsaWithSHA384)
        #expect(leaf.basicConstraints == X509Certificate.BasicConstraints(isCA: false, pathLength: nil))
        #expect(leaf.allowsKeyUsage(bit: 0))
        #expect(!leaf.allowsKeyUsage(bit: 5))
        #expect(leaf.hasExtension(AppleJWSVerifier.leafOID))
        #expect(!leaf.hasExtension(AppleJWSVerifier.intermediateOID))
        #expect(leaf.issuer == intermediate.subject)
        #expect(intermediate.basicConstraints == X509Certificate.BasicConstraints(isCA: true, pathLength: 0))
        #expect(intermediate.hasExtension(AppleJWSVerifier.intermediateOID))
        #expect(intermediate.publicKey.curveName == "P-384")
        #expect(leaf.sha256Fingerprint.description == "4c381556c16121e605d1fc2eef6d0de4e072ed65964fe72f575f19711e84c417")
        try leaf.verifySignature(issuerKey: intermediate.publicKey)
        #expect(throws: ECDSAError.self) { try intermediate.verifySignature(issuerKey: leaf.publicKey) }
    }

    @Test("A certificate whose tbsCertificate is altered by one byte no longer verifies under its issuer")
    func alteredCertificate() throws {
        var der = try Resources.bytes("apple-chains/real-leaf.der")
        let intermediate = try X509Certificate(der: try Resources.bytes("apple-chains/real-intermediate.der"))
        der[200] ^= 0x01
        do {
            let altered = try X509Certificate(der: der)
            #expect(throws: ECDSAError.signatureMismatch(curve: "P-384")) { try altered.verifySignature(issuerKey: intermediate.publicKey) }
        } catch {
            // The flipped byte made the DER unreadable: refused earlier, which is also a refusal.
            #expect(error.offset >= 0)
        }
    }

    @Test("ISO 8601 text for signedDate values, before and after 1970, on leap days")
    func timestamps() {
        #expect(UTCTimestamp.iso8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(UTCTimestamp.iso8601(milliseconds: 1_681_314_324_000) == "2023-04-12T15:45:24.000Z")
        #expect(UTCTimestamp.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(UTCTimestamp.iso8601(milliseconds: 951_782_400_123) == "2000-02-29T00:00:00.123Z")
        #expect(UTCTimestamp.iso8601(milliseconds: 1_709_164_800_000) == "2024-02-29T00:00:00.000Z")
        _ = UTCTimestamp.iso8601(milliseconds: .min)
        _ = UTCTimestamp.iso8601(milliseconds: .max)
    }
}
