import Cryptography

/// The root certificates a chain may end at, each pinned by its SHA-256 fingerprint: `x5c`'s
/// last certificate must be byte-equal to one of them.
public struct AppleTrustedRoots: Sendable {
    /// The trusted roots, parsed.
    public private(set) var certificates: [X509Certificate] = []
    private var fingerprints: Set<SHA256.Digest> = []

    /// An empty set (trusts nothing until roots are added).
    public init() {}

    /// Apple Root CA - G3 alone: the production trust anchor. Empty (trusting nothing) if the
    /// embedded bytes ever fail to match their pinned fingerprint or to parse.
    public static let production: AppleTrustedRoots = {
        var roots = AppleTrustedRoots()
        guard SHA256.hash(appleRootCAG3).description == appleRootCAG3Fingerprint else { return roots }
        do { try roots.add(der: appleRootCAG3) } catch { return AppleTrustedRoots() }
        return roots
    }()

    /// Adds a root from its DER encoding; refuses bytes that are not a certificate this module reads.
    public mutating func add(der: [UInt8]) throws(AppleJWSError) {
        let certificate: X509Certificate
        do {
            certificate = try X509Certificate(der: der)
        } catch {
            throw .invalidTrustedRoot(error.description)
        }
        let fingerprint = certificate.sha256Fingerprint
        guard !fingerprints.contains(fingerprint) else { return }
        fingerprints.insert(fingerprint)
        certificates.append(certificate)
    }

    /// Adds every CERTIFICATE block of PEM text.
    public mutating func add(pem: String) throws(AppleJWSError) {
        let blocks: [[UInt8]]
        do { blocks = try PEM.certificates(in: pem) } catch { throw .invalidTrustedRoot(error.description) }
        for der in blocks { try add(der: der) }
    }

    /// Adds a root given as DER or PEM bytes (PEM when they start with "-----BEGIN").
    public mutating func add(derOrPEM bytes: [UInt8]) throws(AppleJWSError) {
        if bytes.starts(with: Array("-----BEGIN".utf8)) {
            try add(pem: String(decoding: bytes, as: UTF8.self))
        } else {
            try add(der: bytes)
        }
    }

    /// The trusted root byte-equal to `der`, if any (looked up by fingerprint, then compared).
    public func root(matching der: [UInt8]) -> X509Certificate? {
        let fingerprint = SHA256.hash(der)
        guard fingerprints.contains(fingerprint) else { return nil }
        return certificates.first { $0.der == der }
    }

    /// The SHA-256 fingerprints of the trusted roots.
    public var trustedFingerprints: [SHA256.Digest] { certificates.map(\.sha256Fingerprint) }
}
