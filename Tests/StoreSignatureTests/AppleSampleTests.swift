import Cryptography
import Testing
@testable import StoreSignature

/// Apple's own material (see Resources/README.md): the production root, the real Apple chain and
/// the test chains from app-store-server-library-swift's SignedDataVerifierTests, and that
/// library's mock signed data.
@Suite struct AppleSampleTests {
    /// 2025-11-01T02:09:35Z, the date Apple's tests validate the real chain at (EFFECTIVE_DATE).
    static let effectiveDate: Int64 = 1_761_962_975_000
    /// 2042-04-12, after every certificate here has expired (Apple's EXPIRED_DATE).
    static let expiredDate: Int64 = 2_280_946_846_000

    static func chain(_ names: [String]) throws -> [[UInt8]] {
        try names.map { try Resources.bytes("apple-chains/\($0).der") }
    }

    @Test("The shipped Apple Root CA - G3 is pinned by its published SHA-256 fingerprint")
    func productionRootIsPinned() throws {
        let roots = AppleTrustedRoots.production
        #expect(roots.certificates.count == 1)
        #expect(SHA256.hash(AppleTrustedRoots.appleRootCAG3).description == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(roots.trustedFingerprints.map(\.description) == [AppleTrustedRoots.appleRootCAG3Fingerprint])
        #expect(AppleTrustedRoots.appleRootCAG3 == (try Resources.bytes("apple-chains/real-root.der")))
        let root = try #require(roots.certificates.first)
        #expect(root.isCA)
        #expect(root.publicKey.curveName == "P-384")
        #expect(root.signatureAlgorithm == .ecdsaWithSHA384)
        #expect(UTCTimestamp.iso8601(milliseconds: root.notAfter) == "2039-04-30T18:19:06.000Z")
    }

    @Test("Apple's real leaf, WWDR G6 intermediate and root G3 verify under the production root (P-384, SHA-384)")
    func realAppleChainVerifies() throws {
        let verifier = AppleJWSVerifier()
        let certificates = try Self.chain(["real-leaf", "real-intermediate", "real-root"])
        let key = try verifier.verifyCertificateChain(certificates, at: Self.effectiveDate)
        let leaf = try X509Certificate(der: certificates[0])
        #expect(leaf.publicKey == .p256(key))
        #expect(verifier.cachedChainCount == 1)
    }

    @Test("Apple's real chain is refused once the leaf has expired")
    func realAppleChainExpires() throws {
        let verifier = AppleJWSVerifier()
        let certificates = try Self.chain(["real-leaf", "real-intermediate", "real-root"])
        #expect(throws: AppleJWSError.expired(.leaf, signedDate: Self.expiredDate, notAfter: 1_823_449_643_000)) {
            try verifier.verifyCertificateChain(certificates, at: Self.expiredDate)
        }
    }

    @Test("Apple's test chain (P-256 keys, ecdsa-with-SHA384) verifies under its test root, and fails each OID check")
    func appleTestChains() throws {
        let testRoot = try Resources.bytes("apple-chains/test-root.der")
        var roots = AppleTrustedRoots()
        try roots.add(der: testRoot)
        let verifier = AppleJWSVerifier(trustedRoots: roots)
        _ = try verifier.verifyCertificateChain(try Self.chain(["test-leaf", "test-intermediate", "test-root"]), at: Self.effectiveDate)
        #expect(throws: AppleJWSError.missingAppleExtension(.intermediate, AppleJWSVerifier.intermediateOID)) {
            try verifier.verifyCertificateChain(try Self.chain(["test-leaf", "test-intermediate-invalid-oid", "test-root"]), at: Self.effectiveDate)
        }
        #expect(throws: AppleJWSError.missingAppleExtension(.leaf, AppleJWSVerifier.leafOID)) {
            try verifier.verifyCertificateChain(try Self.chain(["test-leaf-invalid-oid", "test-intermediate", "test-root"]), at: Self.effectiveDate)
        }
        #expect(throws: AppleJWSError.untrustedRoot) {
            try AppleJWSVerifier().verifyCertificateChain(try Self.chain(["test-leaf", "test-intermediate", "test-root"]), at: Self.effectiveDate)
        }
    }

    @Test("Apple's mock signed notifications are refused under the production root: the chain does not end at it")
    func mockDataRefusedInProduction() throws {
        let verifier = AppleJWSVerifier()
        for name in ["testNotification", "transactionInfo", "renewalInfo"] {
            let jws = try Resources.text("apple-mock-signed-data/\(name)")
            #expect(throws: AppleJWSError.untrustedRoot, "\(name)") { try verifier.verify(jws) }
        }
        let wrongBundleId = try Resources.text("apple-mock-signed-data/wrongBundleId")
        #expect(throws: AppleJWSError.missingSignedDate) { try verifier.verify(wrongBundleId) }
        #expect(throws: AppleJWSError.untrustedRoot) { try verifier.verify(wrongBundleId, fallbackSignedDate: Self.effectiveDate) }
        let missingX5C = try Resources.text("apple-mock-signed-data/missingX5CHeaderClaim")
        #expect(throws: AppleJWSError.missingCertificateChain) { try verifier.verify(missingX5C) }
    }

    @Test("Apple's mock signed data whose x5c root is Apple's testCA.der verifies once that root is added")
    func mockDataAcceptedUnderTestRoot() throws {
        var roots = AppleTrustedRoots()
        try roots.add(der: try Resources.bytes("apple-mock-signed-data/testCA.der"))
        let verifier = AppleJWSVerifier(trustedRoots: roots)
        let renewal = try verifier.verify(try Resources.text("apple-mock-signed-data/renewalInfo"))
        #expect(String(decoding: renewal.payload, as: UTF8.self).contains("\"signedDate\":1672956154000"))
        #expect(renewal.signedDate == 1_672_956_154_000)
        let wrongBundle = try verifier.verify(try Resources.text("apple-mock-signed-data/wrongBundleId"), fallbackSignedDate: Self.effectiveDate)
        #expect(!wrongBundle.signedDateFromPayload)
        #expect(String(decoding: wrongBundle.payload, as: UTF8.self).contains("com.example.wrong"))
    }

    @Test("testNotification and transactionInfo carry a re-issued copy of Apple's test root: byte equality refuses it until that copy is trusted")
    func reissuedTestRoot() throws {
        let testCA = try X509Certificate(der: try Resources.bytes("apple-mock-signed-data/testCA.der"))
        var roots = AppleTrustedRoots()
        try roots.add(der: testCA.der)
        let strict = AppleJWSVerifier(trustedRoots: roots)
        for name in ["testNotification", "transactionInfo"] {
            let jws = try Resources.text("apple-mock-signed-data/\(name)")
            #expect(throws: AppleJWSError.untrustedRoot, "\(name)") { try strict.verify(jws) }
            // Its x5c[2]: same subject and key as testCA.der, yet another certificate.
            let x5cRoot = try #require(try AppleJWSVerifier.header(CompactJWS(jws).header).x5c?.last)
            let copy = try X509Certificate(der: try Base64.decode(x5cRoot))
            #expect(copy.der != testCA.der)
            #expect(copy.subject == testCA.subject)
            #expect(copy.publicKey == testCA.publicKey)
            var withCopy = roots
            try withCopy.add(der: copy.der)
            let verified = try AppleJWSVerifier(trustedRoots: withCopy).verify(jws)
            #expect(String(decoding: verified.payload, as: UTF8.self).contains("com.example"))
        }
    }
}
