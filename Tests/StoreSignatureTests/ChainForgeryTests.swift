import AppleChainFixture
import Cryptography
import Foundation
import Testing
@testable import StoreSignature

/// A chain made with openssl (root; intermediate with CA:true and OID 1.2.840.113635.100.6.2.1;
/// leaf with CA:false and OID 1.2.840.113635.100.6.11.1) signing notifications, verified with
/// that root added; then every forgery refused, naming its check.
@Suite(.enabled(if: OpenSSLChain.isAvailable, Comment(rawValue: OpenSSLChain.skipReason)))
struct ChainForgeryTests {
    let chain: OpenSSLChain
    let verifier: AppleJWSVerifier
    let signedDate = OpenSSLChain.now + 60_000

    init() throws {
        chain = try OpenSSLChain.shared.get()
        verifier = try chain.verifier()
    }

    let good = ["leaf", "intermediate", "root"]

    func expectRefusal(_ expected: AppleJWSError, _ jws: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: expected, sourceLocation: sourceLocation) { try verifier.verify(jws) }
    }

    @Test("A notification signed under the added root verifies; the repeat hits the chain cache")
    func validNotification() throws {
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        let jws = try chain.jws(chain: good, payload: payload)
        let first = try verifier.verify(jws)
        #expect(first.payload == Array(payload.utf8))
        #expect(first.signedDate == signedDate)
        #expect(first.signedDateFromPayload)
        #expect(!first.chainFromCache)
        #expect(first.leafCertificateFingerprint == SHA256.hash(try chain.der("leaf")))
        let second = try verifier.verify(jws)
        #expect(second.chainFromCache)
        #expect(verifier.cachedChainCount == 1)
    }

    @Test("The same root added from PEM text works as well as from DER")
    func rootFromPEM() throws {
        var roots = AppleTrustedRoots()
        try roots.add(pem: try chain.pem("root"))
        try roots.add(derOrPEM: Array(try chain.pem("root-384").utf8))
        #expect(roots.certificates.count == 2)
        let jws = try chain.jws(chain: good, payload: OpenSSLChain.notification(signedDate: signedDate))
        _ = try AppleJWSVerifier(trustedRoots: roots).verify(jws)
        #expect(throws: AppleJWSError.self) { try roots.add(pem: "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----") }
        #expect(throws: AppleJWSError.self) { try roots.add(der: [0x30, 0x00]) }
    }

    @Test("Apple's shape — P-384 root and intermediate signing with SHA-384, P-256 leaf — verifies")
    func appleShapedChain() throws {
        var roots = AppleTrustedRoots()
        try roots.add(der: try chain.der("root-384"))
        let jws = try chain.jws(chain: ["leaf-under-384", "intermediate-384", "root-384"], payload: OpenSSLChain.notification(signedDate: signedDate))
        let verified = try AppleJWSVerifier(trustedRoots: roots).verify(jws)
        #expect(verified.signedDate == signedDate)
    }

    @Test("Nested signedTransactionInfo and signedRenewalInfo verify with the notification; a forged nested one is named")
    func nestedJWS() throws {
        let transaction = try chain.jws(chain: good, payload: "{\"transactionId\":\"1000\",\"signedDate\":\(signedDate)}")
        let renewal = try chain.jws(chain: good, payload: "{\"autoRenewStatus\":1}")
        let outer = OpenSSLChain.notification(signedDate: signedDate,
            extra: ",\"data\":{\"signedTransactionInfo\":\"\(transaction)\",\"signedRenewalInfo\":\"\(renewal)\"}")
        let notification = try chain.jws(chain: good, payload: outer)
        let verified = try verifier.verifyNotification(signedPayload: notification)
        #expect(verified.transactionInfo?.payload == Array("{\"transactionId\":\"1000\",\"signedDate\":\(signedDate)}".utf8))
        #expect(verified.renewalInfo?.payload == Array("{\"autoRenewStatus\":1}".utf8))
        #expect(verified.renewalInfo?.signedDateFromPayload == false)
        #expect(verified.transactionInfo?.chainFromCache == true)

        let body = Array("{\"signedPayload\":\"\(notification)\"}".utf8)
        #expect(try verifier.verifyNotificationRequestBody(body).renewalInfo != nil)
        #expect(throws: AppleJWSError.malformedRequestBody("is not a JSON object with a string signedPayload")) {
            try verifier.verifyNotificationRequestBody(Array("{\"payload\":1}".utf8))
        }

        let forgedTransaction = try chain.jws(chain: good, payload: "{\"transactionId\":\"1000\",\"signedDate\":\(signedDate)}", key: "rogue")
        let forgedOuter = try chain.jws(chain: good, payload: OpenSSLChain.notification(signedDate: signedDate,
            extra: ",\"data\":{\"signedTransactionInfo\":\"\(forgedTransaction)\"}"))
        #expect(throws: AppleJWSError.nested(field: "data.signedTransactionInfo", .signature(.signatureMismatch(curve: "P-256")))) {
            try verifier.verifyNotification(signedPayload: forgedOuter)
        }
    }

    @Test("alg none and alg HS256 are refused by name")
    func wrongAlgorithms() throws {
        let x5c = try good.map(chain.der)
        let payload = Base64URL.encode(Array(OpenSSLChain.notification(signedDate: signedDate).utf8))
        let none = Base64URL.encode(Array(OpenSSLChain.header(alg: "none", x5c: x5c).utf8)) + "." + payload + "."
        expectRefusal(.algorithmNotES256("none"), none)
        #expect(throws: AppleJWSError.self) { try verifier.verify(none) }
        let hs256 = try chain.jws(chain: good, payload: OpenSSLChain.notification(signedDate: signedDate), alg: "HS256")
        expectRefusal(.algorithmNotES256("HS256"), hs256)
        #expect(AppleJWSError.algorithmNotES256("none").description == "alg is \"none\", not ES256")
    }

    @Test("A chain ending at another root (even one with the same name) is refused")
    func otherRoot() throws {
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        expectRefusal(.untrustedRoot, try chain.jws(chain: ["other-leaf", "other-intermediate", "other-root"], payload: payload))
        expectRefusal(.untrustedRoot, try chain.jws(chain: ["leaf", "intermediate", "other-root"], payload: payload))
        #expect(AppleJWSError.untrustedRoot.description == "certificate chain does not end at a trusted root")
        // The trusted root's bytes with the other root's intermediate: its signature fails.
        let mixed = try chain.jws(chain: ["other-leaf", "other-intermediate", "root"], payload: payload)
        #expect(throws: AppleJWSError.certificateSignature(.intermediate, .signatureMismatch(curve: "P-256"))) { try verifier.verify(mixed) }
    }

    @Test("Intermediates that are not CAs are refused: CA:false, and an end-entity certificate signing the leaf")
    func nonCAIntermediates() throws {
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        expectRefusal(.intermediateNotCA, try chain.jws(chain: ["leaf-under-not-ca", "intermediate-not-ca", "root"], payload: payload))
        expectRefusal(.intermediateNotCA, try chain.jws(chain: ["leaf-under-end-entity", "end-entity", "root"], payload: payload))
        #expect(AppleJWSError.intermediateNotCA.description == "intermediate is not a CA")
    }

    @Test("A leaf that is a CA, lacks digitalSignature, or marks an unknown extension critical is refused")
    func badLeaves() throws {
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        expectRefusal(.leafIsCA, try chain.jws(chain: ["leaf-ca", "intermediate", "root"], payload: payload))
        expectRefusal(.keyUsage(.leaf, "lacks digitalSignature"), try chain.jws(chain: ["leaf-key-encipherment", "intermediate", "root"], payload: payload))
        let oid = try #require(DERObjectIdentifier("1.3.6.1.4.1.55555.1"))
        expectRefusal(.unhandledCriticalExtension(.leaf, oid), try chain.jws(chain: ["leaf-unknown-critical", "intermediate", "root"], payload: payload))
        expectRefusal(.leafKeyNotP256("P-384"), try chain.jws(chain: ["leaf-p384", "intermediate", "root"], payload: payload, key: "leaf-p384"))
    }

    @Test("A leaf signed by a rogue key under the intermediate's name fails its signature check")
    func rogueIssuer() throws {
        let jws = try chain.jws(chain: ["leaf-by-rogue", "intermediate", "root"], payload: OpenSSLChain.notification(signedDate: signedDate))
        expectRefusal(.certificateSignature(.leaf, .signatureMismatch(curve: "P-256")), jws)
        // Under an intermediate whose subject differs from the leaf's issuer: names disagree.
        let renamed = try chain.jws(chain: ["leaf", "intermediate-no-oid", "root"], payload: OpenSSLChain.notification(signedDate: signedDate))
        expectRefusal(.issuerMismatch(.leaf), renamed)
    }

    @Test("Each missing Apple OID is named: intermediate 1.2.840.113635.100.6.2.1, leaf 1.2.840.113635.100.6.11.1")
    func missingOIDs() throws {
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        expectRefusal(.missingAppleExtension(.intermediate, AppleJWSVerifier.intermediateOID),
                      try chain.jws(chain: ["leaf-under-no-oid", "intermediate-no-oid", "root"], payload: payload))
        expectRefusal(.missingAppleExtension(.leaf, AppleJWSVerifier.leafOID), try chain.jws(chain: ["leaf-no-oid", "intermediate", "root"], payload: payload))
        #expect(AppleJWSError.missingAppleExtension(.leaf, AppleJWSVerifier.leafOID).description == "x5c leaf lacks Apple's OID 1.2.840.113635.100.6.11.1")
    }

    @Test("Validity is judged at signedDate: an expired leaf and a not-yet-valid chain are refused, the wall clock ignored")
    func validityAtSignedDate() throws {
        let late = OpenSSLChain.now + 3 * 86_400_000
        let expired = try chain.jws(chain: ["leaf-one-day", "intermediate", "root"], payload: OpenSSLChain.notification(signedDate: late))
        let leafCertificate = try X509Certificate(der: try chain.der("leaf-one-day"))
        expectRefusal(.expired(.leaf, signedDate: late, notAfter: leafCertificate.notAfter), expired)
        #expect(AppleJWSError.expired(.leaf, signedDate: late, notAfter: leafCertificate.notAfter).description.hasPrefix("leaf expired at signedDate 20"))
        // The same leaf is fine for a payload signed today.
        _ = try verifier.verify(try chain.jws(chain: ["leaf-one-day", "intermediate", "root"], payload: OpenSSLChain.notification(signedDate: signedDate)))
        let early = OpenSSLChain.now - 3 * 86_400_000
        let notYet = try chain.jws(chain: good, payload: OpenSSLChain.notification(signedDate: early))
        let leaf = try X509Certificate(der: try chain.der("leaf"))
        expectRefusal(.notYetValid(.leaf, signedDate: early, notBefore: leaf.notBefore), notYet)
        let undated = try chain.jws(chain: good, payload: "{\"notificationType\":\"TEST\"}")
        expectRefusal(.missingSignedDate, undated)
        #expect(try verifier.verify(undated, fallbackSignedDate: signedDate).signedDate == signedDate)
        expectRefusal(.malformedPayload("is not a JSON object whose signedDate is an integer"),
                      try chain.jws(chain: good, payload: "{\"signedDate\":\"yesterday\"}"))
    }

    @Test("A payload changed by one byte, or another payload's signature, is refused")
    func tamperedPayloads() throws {
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        let jws = try chain.jws(chain: good, payload: payload)
        let parts = jws.split(separator: ".").map(String.init)
        var changed = Array(payload.utf8)
        changed[changed.count - 3] ^= 0x01
        let oneByte = parts[0] + "." + Base64URL.encode(changed) + "." + parts[2]
        expectRefusal(.signature(.signatureMismatch(curve: "P-256")), oneByte)
        let other = try chain.jws(chain: good, payload: OpenSSLChain.notification(signedDate: signedDate + 1))
        let swapped = parts[0] + "." + parts[1] + "." + other.split(separator: ".")[2]
        expectRefusal(.signature(.signatureMismatch(curve: "P-256")), swapped)
    }

    @Test("x5c of 2 or 4 certificates, and malformed compact forms, are refused")
    func chainLengths() throws {
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        expectRefusal(.chainLength(2), try chain.jws(chain: ["leaf", "intermediate"], payload: payload))
        expectRefusal(.chainLength(4), try chain.jws(chain: ["leaf", "intermediate", "root", "root"], payload: payload))
        #expect(AppleJWSError.chainLength(2).description == "x5c holds 2 certificates, not 3")
        let jws = try chain.jws(chain: good, payload: payload)
        expectRefusal(.notCompactJWS(segments: 4), jws + ".e30")
        expectRefusal(.notCompactJWS(segments: 2), String(jws.split(separator: ".").dropLast().joined(separator: ".")))
        #expect(throws: AppleJWSError.self) { try verifier.verify(jws + "=") }
        #expect(throws: AppleJWSError.self) { try verifier.verify(" " + jws) }
    }

    /// `jws` with x5c entry `index` replaced by `der`.
    func replacing(_ index: Int, with der: [UInt8]) throws -> String {
        var certificates = try good.map(chain.der)
        certificates[index] = der
        return try chain.jws(header: OpenSSLChain.header(alg: "ES256", x5c: certificates), payload: OpenSSLChain.notification(signedDate: signedDate))
    }

    /// The leaf's DER with its outer length re-encoded as `lengthBytes` (after the 0x30 tag).
    func leafWithOuterLength(_ lengthBytes: [UInt8], tail: [UInt8] = []) throws -> [UInt8] {
        let leaf = try chain.der("leaf")
        let headerLength = leaf[1] < 0x80 ? 2 : 2 + Int(leaf[1] & 0x7f)
        return [0x30] + lengthBytes + leaf[headerLength...] + tail
    }

    @Test("Certificates in BER or broken DER are refused: trailing bytes, indefinite, overlong and huge lengths")
    func malformedDER() throws {
        let leaf = try chain.der("leaf")
        let contentLength = leaf.count - (leaf[1] < 0x80 ? 2 : 2 + Int(leaf[1] & 0x7f))
        let n = contentLength
        func kind(_ der: [UInt8]) throws -> DERError.Kind? {
            do {
                _ = try verifier.verify(try replacing(0, with: der))
                return nil
            } catch let AppleJWSError.malformedCertificate(.leaf, error) {
                return error.kind
            }
        }
        #expect(try kind(leaf + [0x00]) == .trailingBytes(count: 1))
        #expect(try kind(try leafWithOuterLength([0x80], tail: [0x00, 0x00])) == .indefiniteLength)
        #expect(try kind(try leafWithOuterLength([0x83, 0x00, UInt8(n >> 8), UInt8(n & 0xff)])) == .nonMinimalLength)
        #expect(try kind(try leafWithOuterLength([0x84, 0xff, 0xff, 0xff, 0xff])) == .lengthPastEnd(length: 0xffff_ffff, available: n))
        #expect(try kind(try leafWithOuterLength([0x89, 0x01, 0, 0, 0, 0, 0, 0, 0, 0])) == .lengthTooLarge(lengthBytes: 9))
        // A root with a trailing byte is no longer byte-equal to the trusted root.
        expectRefusal(.untrustedRoot, try replacing(2, with: try chain.der("root") + [0x00]))
    }

    @Test("JWS signatures with r or s zero, equal to n, or above n are refused as out of range")
    func signatureRanges() throws {
        let jws = try chain.jws(chain: good, payload: OpenSSLChain.notification(signedDate: signedDate))
        let parts = jws.split(separator: ".").map(String.init)
        let signature = try Base64.decodeURL(parts[2])
        let r = Array(signature[..<32]), s = Array(signature[32...])
        let zero = [UInt8](repeating: 0, count: 32)
        let order = P256.orderBytes
        let all = [UInt8](repeating: 0xff, count: 32)
        func with(_ r: [UInt8], _ s: [UInt8]) -> String { parts[0] + "." + parts[1] + "." + Base64URL.encode(r + s) }
        expectRefusal(.signature(.componentOutOfRange(curve: "P-256", component: "r", reason: "zero")), with(zero, s))
        expectRefusal(.signature(.componentOutOfRange(curve: "P-256", component: "s", reason: "zero")), with(r, zero))
        expectRefusal(.signature(.componentOutOfRange(curve: "P-256", component: "r", reason: "not below the group order n")), with(order, s))
        expectRefusal(.signature(.componentOutOfRange(curve: "P-256", component: "s", reason: "not below the group order n")), with(r, order))
        expectRefusal(.signature(.componentOutOfRange(curve: "P-256", component: "s", reason: "not below the group order n")), with(r, all))
        expectRefusal(.signature(.signatureLength(curve: "P-256", actual: 63, expected: 64)), parts[0] + "." + parts[1] + "." + Base64URL.encode(Array(signature.dropLast())))
        _ = try verifier.verify(with(r, s))
    }

    @Test("The cache is bounded: with room for one chain, a second evicts the first")
    func boundedCache() throws {
        let small = try chain.verifier(cacheCapacity: 1)
        let payload = OpenSSLChain.notification(signedDate: signedDate)
        let first = try chain.jws(chain: good, payload: payload)
        let second = try chain.jws(chain: ["leaf-second", "intermediate", "root"], payload: payload)
        #expect(try !small.verify(first).chainFromCache)
        #expect(try small.verify(first).chainFromCache)
        #expect(try !small.verify(second).chainFromCache)
        #expect(small.cachedChainCount == 1)
        #expect(try !small.verify(first).chainFromCache)
        let none = try chain.verifier(cacheCapacity: 0)
        _ = try none.verify(first)
        #expect(none.cachedChainCount == 0)
    }

    @Test("Concurrent verifications through one verifier all succeed and leave one cached chain")
    func concurrentUse() async throws {
        let jws = try chain.jws(chain: good, payload: OpenSSLChain.notification(signedDate: signedDate))
        let shared = try chain.verifier()
        let accepted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    do { _ = try shared.verify(jws); return true } catch { return false }
                }
            }
            var count = 0
            for await ok in group where ok { count += 1 }
            return count
        }
        #expect(accepted == 16)
        #expect(shared.cachedChainCount == 1)
    }
}
