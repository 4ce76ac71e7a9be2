import Cryptography

/// A JWS that passed every check: its payload and what it was checked against.
public struct AppleVerifiedPayload: Sendable {
    /// The decoded payload bytes (JSON).
    public let payload: [UInt8]
    /// The instant the chain's validity was checked at, milliseconds since 1970 UTC: the payload's
    /// `signedDate`, or the caller's fallback when the payload has none.
    public let signedDate: Int64
    /// Whether `signedDate` came from the payload (false: the fallback was used).
    public let signedDateFromPayload: Bool
    /// SHA-256 of the leaf certificate's DER.
    public let leafCertificateFingerprint: SHA256.Digest
    /// Whether the certificate chain came from the verified-chain cache (one signature check only).
    public let chainFromCache: Bool
}

/// An App Store Server Notification V2 with the JWS strings nested in its `data`, each verified.
public struct AppleVerifiedNotification: Sendable {
    /// The notification's own payload (`responseBodyV2DecodedPayload`).
    public let notification: AppleVerifiedPayload
    /// `data.signedTransactionInfo`, verified, when present.
    public let transactionInfo: AppleVerifiedPayload?
    /// `data.signedRenewalInfo`, verified, when present.
    public let renewalInfo: AppleVerifiedPayload?
}
