import Cryptography

/// The parts of an X.509 v3 certificate (RFC 5280) that App Store chain verification needs,
/// parsed strictly from DER: ECDSA keys on P-256 or P-384, ecdsa-with-SHA256/384 signatures.
public struct X509Certificate: Sendable {
    /// The signature algorithms accepted.
    public enum SignatureAlgorithm: Sendable, Equatable, CustomStringConvertible {
        case ecdsaWithSHA256
        case ecdsaWithSHA384

        /// The digest the algorithm signs.
        public var hash: ECDSA.HashFunction {
            switch self {
            case .ecdsaWithSHA256: .sha256
            case .ecdsaWithSHA384: .sha384
            }
        }

        public var description: String {
            switch self {
            case .ecdsaWithSHA256: "ecdsa-with-SHA256"
            case .ecdsaWithSHA384: "ecdsa-with-SHA384"
            }
        }
    }

    /// One extension: its OID, criticality and the DER inside its OCTET STRING.
    public struct Extension: Sendable {
        /// extnID.
        public let oid: DERObjectIdentifier
        /// The critical flag (absent means false).
        public let isCritical: Bool
        /// The extnValue OCTET STRING's content (the extension's own DER).
        public let value: [UInt8]
    }

    /// The basicConstraints extension's content.
    public struct BasicConstraints: Sendable, Equatable {
        /// cA: whether the subject may issue certificates.
        public let isCA: Bool
        /// pathLenConstraint, when present.
        public let pathLength: Int?
    }

    /// The certificate's DER encoding.
    public let der: [UInt8]
    /// The DER of tbsCertificate, the bytes the issuer signed.
    public let tbsCertificate: [UInt8]
    /// The serial number's content bytes (two's complement, as encoded).
    public let serialNumber: [UInt8]
    /// The issuer Name's DER (compared byte for byte with the issuer's subject).
    public let issuer: [UInt8]
    /// The subject Name's DER.
    public let subject: [UInt8]
    /// Validity notBefore, milliseconds since 1970 UTC.
    public let notBefore: Int64
    /// Validity notAfter, milliseconds since 1970 UTC (inclusive, RFC 5280 §4.1.2.5).
    public let notAfter: Int64
    /// The subject's public key.
    public let publicKey: ECDSA.PublicKey
    /// The extensions, in order (no OID twice).
    public let extensions: [Extension]
    /// basicConstraints, when the extension is present.
    public let basicConstraints: BasicConstraints?
    /// keyUsage bits (bit 0 = digitalSignature … bit 5 = keyCertSign), when present.
    public let keyUsage: [Bool]?
    /// The outer signatureAlgorithm (equal to the one inside tbsCertificate).
    public let signatureAlgorithm: SignatureAlgorithm
    /// The issuer's signature over `tbsCertificate`.
    public let signature: ECDSA.Signature

    /// Whether the certificate carries an extension with `oid`.
    public func hasExtension(_ oid: DERObjectIdentifier) -> Bool { extensions.contains { $0.oid == oid } }

    /// Whether the subject is a CA (basicConstraints present with cA true).
    public var isCA: Bool { basicConstraints?.isCA ?? false }

    /// Whether keyUsage is absent or has `bit` set (0 digitalSignature, 5 keyCertSign).
    public func allowsKeyUsage(bit: Int) -> Bool {
        guard let keyUsage else { return true }
        return bit < keyUsage.count && keyUsage[bit]
    }

    /// SHA-256 of the DER encoding.
    public var sha256Fingerprint: SHA256.Digest { SHA256.hash(der) }

    /// Checks this certificate's signature under `issuerKey`; throws naming the failed check.
    public func verifySignature(issuerKey: ECDSA.PublicKey) throws(ECDSAError) {
        try issuerKey.verify(signature, message: tbsCertificate, hash: signatureAlgorithm.hash)
    }
}
