import Cryptography
import Foundation
import Synchronization

/// Verifies App Store signed data — Server Notifications V2 `signedPayload`, and the
/// `signedTransactionInfo` / `signedRenewalInfo` nested in them — as Apple's
/// app-store-server-library `SignedDataVerifier` does offline:
///
/// 1. compact JWS of three strict base64url segments; header `alg` is `ES256`;
/// 2. `x5c` holds exactly three certificates (leaf, intermediate, root), the root byte-equal to a
///    trusted root (pinned by SHA-256);
/// 3. each certificate's issuer Name is its issuer's subject and its signature verifies under the
///    issuer's key; the intermediate is a CA, the leaf is not; keyUsage and critical extensions
///    allow those roles; the intermediate carries OID 1.2.840.113635.100.6.2.1 and the leaf
///    1.2.840.113635.100.6.11.1; the leaf key is P-256;
/// 4. every validity period contains the payload's `signedDate` (not the wall clock);
/// 5. the JWS signature (r‖s) verifies under the leaf key over ASCII `header.payload`.
///
/// Chains that pass step 3 are cached by the SHA-256 of their certificates (bounded, thread-safe),
/// so a repeat chain costs one P-256 signature check. Online revocation checks (OCSP) are not made.
public final class AppleJWSVerifier: Sendable {
    /// Apple's intermediate (WWDR) certificate marker, required on x5c[1].
    public static let intermediateOID = DERObjectIdentifier(validated: [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x02, 0x01])
    /// Apple's receipt-signing certificate marker, required on x5c[0].
    public static let leafOID = DERObjectIdentifier(validated: [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x0b, 0x01])

    /// The roots chains may end at.
    public let trustedRoots: AppleTrustedRoots
    /// Longest JWS text accepted.
    public let maximumLength: Int
    let cache: Mutex<ChainCache>

    /// A verifier trusting `trustedRoots` (production: Apple Root CA - G3 alone), caching up to
    /// `cacheCapacity` verified chains.
    public init(trustedRoots: AppleTrustedRoots = .production, cacheCapacity: Int = 32,
                maximumLength: Int = CompactJWS.defaultMaximumLength) {
        self.trustedRoots = trustedRoots
        self.maximumLength = maximumLength
        cache = Mutex(ChainCache(capacity: cacheCapacity))
    }

    /// Number of chains in the cache.
    public var cachedChainCount: Int { cache.withLock { $0.count } }

    /// Empties the chain cache.
    public func clearCache() { cache.withLock { $0.removeAll() } }

    /// Verifies one JWS and returns its payload. `fallbackSignedDate` (milliseconds since 1970)
    /// is used only when the payload has no `signedDate`; without it such payloads are refused.
    public func verify(_ jws: some StringProtocol, fallbackSignedDate: Int64? = nil) throws(AppleJWSError) -> AppleVerifiedPayload {
        let parts = try CompactJWS(jws, maximumLength: maximumLength)
        let header = try Self.header(parts.header)
        guard header.alg == "ES256" else { throw .algorithmNotES256(header.alg) }
        guard let x5c = header.x5c else { throw .missingCertificateChain }
        guard x5c.count == 3 else { throw .chainLength(x5c.count) }
        let payloadDate = try Self.signedDate(parts.payload)
        guard let signedDate = payloadDate ?? fallbackSignedDate else { throw .missingSignedDate }
        let certificates = try Self.decodeCertificates(x5c)
        let (chain, fromCache) = try verifiedChain(certificates)
        try chain.checkValidity(at: signedDate)
        do {
            try chain.leafKey.verify(rawSignature: parts.signature, digest: SHA256.hash(parts.signingInput).bytes)
        } catch {
            throw .signature(error)
        }
        return AppleVerifiedPayload(payload: parts.payload, signedDate: signedDate, signedDateFromPayload: payloadDate != nil,
                                    leafCertificateFingerprint: chain.leafFingerprint, chainFromCache: fromCache)
    }

    /// Verifies a certificate chain alone (leaf, intermediate, root DER) at `date` (milliseconds
    /// since 1970) and returns the leaf's P-256 key; the same checks and cache as `verify`.
    public func verifyCertificateChain(_ certificates: [[UInt8]], at date: Int64) throws(AppleJWSError) -> P256.PublicKey {
        guard certificates.count == 3 else { throw .chainLength(certificates.count) }
        let (chain, _) = try verifiedChain(certificates)
        try chain.checkValidity(at: date)
        return chain.leafKey
    }

    /// The cached chain for these certificates, or a freshly verified one (then cached).
    func verifiedChain(_ certificates: [[UInt8]]) throws(AppleJWSError) -> (VerifiedChain, fromCache: Bool) {
        let key = Self.chainKey(certificates)
        if let cached = cache.withLock({ $0.chain(for: key) }) { return (cached, true) }
        let chain = try verifyChainUncached(certificates)
        cache.withLock { $0.insert(chain, for: key) }
        return (chain, false)
    }

    /// The protected header's fields this verifier reads.
    struct Header: Decodable {
        let alg: String?
        let x5c: [String]?
        let crit: [String]?
    }

    static func header(_ bytes: [UInt8]) throws(AppleJWSError) -> Header {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(bytes))
        } catch {
            throw .malformedHeader("is not a JSON object with a string alg and a string-array x5c")
        }
        if let crit = header.crit {
            throw .malformedHeader("marks \(crit.count) parameter(s) critical (crit), which this verifier does not process")
        }
        return header
    }

    /// The payload's integer `signedDate`, or nil when absent.
    static func signedDate(_ bytes: [UInt8]) throws(AppleJWSError) -> Int64? {
        struct Dated: Decodable { let signedDate: Int64? }
        do {
            return try JSONDecoder().decode(Dated.self, from: Data(bytes)).signedDate
        } catch {
            throw .malformedPayload("is not a JSON object whose signedDate is an integer")
        }
    }

    static func decodeCertificates(_ x5c: [String]) throws(AppleJWSError) -> [[UInt8]] {
        let positions: [AppleJWSError.Position] = [.leaf, .intermediate, .root]
        var out: [[UInt8]] = []
        for (position, text) in zip(positions, x5c) {
            do { out.append(try Base64.decode(text)) } catch { throw .certificateEncoding(position, error) }
        }
        return out
    }
}
