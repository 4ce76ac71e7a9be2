import SubscriptionDomain
/// How the App Store's signed strings (`signedPayload`, `data.signedTransactionInfo`,
/// `data.signedRenewalInfo`) are opened at the import door: by a caller that verifies each
/// signature chain before handing over its payload (the default of `import --from appstore` and
/// `serve`), or, when asked for explicitly, by reading the payload unverified.
public struct JWSOpener: Sendable {
    /// The payload JSON of a compact JWS, after the checks this opener makes; a refusal is an
    /// error whose text names the check that failed, in one line.
    public let open: @Sendable (_ jws: String) throws -> [UInt8]
    /// Whether `open` verifies signatures (false: payloads are taken on trust, and counted).
    public let verifies: Bool

    public init(verifies: Bool, open: @escaping @Sendable (_ jws: String) throws -> [UInt8]) {
        self.verifies = verifies
        self.open = open
    }

    /// Reads the payload without checking the signature or its certificate chain.
    public static let unverified = JWSOpener(verifies: false) { try CompactJWS.payloadBytes($0) }
}
