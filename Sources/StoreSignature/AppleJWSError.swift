import Cryptography

/// Why an App Store JWS was refused. Each case names one check; `description` is one line.
public enum AppleJWSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A certificate's place in `x5c`.
    public enum Position: String, Sendable, Equatable {
        case leaf, intermediate, root
    }

    /// The text is not `header.payload.signature`.
    case notCompactJWS(segments: Int)
    /// The text is longer than the verifier accepts.
    case tooLarge(bytes: Int, limit: Int)
    /// A segment is not strict base64url.
    case segmentEncoding(segment: String, Base64.DecodingError)
    /// The header is not a JSON object with string `alg` and string-array `x5c`.
    case malformedHeader(String)
    /// `alg` is not ES256 (nil: absent).
    case algorithmNotES256(String?)
    /// The header has no `x5c`.
    case missingCertificateChain
    /// `x5c` does not hold exactly three certificates.
    case chainLength(Int)
    /// An `x5c` entry is not strict base64.
    case certificateEncoding(Position, Base64.DecodingError)
    /// An `x5c` entry is not a certificate this verifier can read.
    case malformedCertificate(Position, DERError)
    /// The chain's root is not one of the trusted roots.
    case untrustedRoot
    /// A certificate's issuer Name is not its issuer's subject Name.
    case issuerMismatch(Position)
    /// A certificate's signature does not verify under its issuer's key.
    case certificateSignature(Position, ECDSAError)
    /// The intermediate lacks basicConstraints cA = TRUE.
    case intermediateNotCA
    /// The leaf claims to be a CA.
    case leafIsCA
    /// A certificate's keyUsage forbids its role.
    case keyUsage(Position, String)
    /// A certificate marks critical an extension this verifier does not process.
    case unhandledCriticalExtension(Position, DERObjectIdentifier)
    /// A certificate lacks the OID Apple's policy requires of it.
    case missingAppleExtension(Position, DERObjectIdentifier)
    /// The leaf key is not P-256, so cannot check an ES256 signature.
    case leafKeyNotP256(String)
    /// The payload is not a JSON object, or its `signedDate` is not an integer.
    case malformedPayload(String)
    /// The payload has no `signedDate` and no fallback date was given.
    case missingSignedDate
    /// `signedDate` falls before a certificate's notBefore.
    case notYetValid(Position, signedDate: Int64, notBefore: Int64)
    /// `signedDate` falls after a certificate's notAfter.
    case expired(Position, signedDate: Int64, notAfter: Int64)
    /// The JWS signature (raw r‖s) is refused under the leaf key.
    case signature(ECDSAError)
    /// A certificate offered as a trusted root is unusable.
    case invalidTrustedRoot(String)
    /// A notification request body is not `{"signedPayload": "…"}`.
    case malformedRequestBody(String)
    /// A JWS nested in a notification's `data` (named by `field`) was refused.
    indirect case nested(field: String, AppleJWSError)

    public var description: String {
        switch self {
        case let .notCompactJWS(segments): "JWS compact form has \(segments) segment\(segments == 1 ? "" : "s"), not 3"
        case let .tooLarge(bytes, limit): "JWS is \(bytes) bytes, over the \(limit)-byte limit"
        case let .segmentEncoding(segment, error): "JWS \(segment) segment is not base64url: \(error)"
        case let .malformedHeader(reason): "JWS header \(reason)"
        case let .algorithmNotES256(alg): alg.map { "alg is \"\($0)\", not ES256" } ?? "alg is missing, not ES256"
        case .missingCertificateChain: "JWS header has no x5c certificate chain"
        case let .chainLength(count): "x5c holds \(count) certificate\(count == 1 ? "" : "s"), not 3"
        case let .certificateEncoding(position, error): "x5c \(position.rawValue) is not base64: \(error)"
        case let .malformedCertificate(position, error): "x5c \(position.rawValue) is not a usable certificate: \(error)"
        case .untrustedRoot: "certificate chain does not end at a trusted root"
        case let .issuerMismatch(position):
            "x5c \(position.rawValue)'s issuer is not the \(position == .leaf ? "intermediate" : "root")'s subject"
        case let .certificateSignature(position, error):
            "x5c \(position.rawValue)'s signature does not verify under the \(position == .leaf ? "intermediate" : "root")'s key: \(error)"
        case .intermediateNotCA: "intermediate is not a CA"
        case .leafIsCA: "leaf is a CA"
        case let .keyUsage(position, reason): "x5c \(position.rawValue) keyUsage \(reason)"
        case let .unhandledCriticalExtension(position, oid): "x5c \(position.rawValue) has unhandled critical extension \(oid)"
        case let .missingAppleExtension(position, oid): "x5c \(position.rawValue) lacks Apple's OID \(oid)"
        case let .leafKeyNotP256(curve): "leaf key is \(curve), not P-256 (ES256)"
        case let .malformedPayload(reason): "JWS payload \(reason)"
        case .missingSignedDate: "JWS payload has no signedDate"
        case let .notYetValid(position, signedDate, notBefore):
            "\(position.rawValue) not yet valid at signedDate \(UTCTimestamp.iso8601(milliseconds: signedDate)) (notBefore \(UTCTimestamp.iso8601(milliseconds: notBefore)))"
        case let .expired(position, signedDate, notAfter):
            "\(position.rawValue) expired at signedDate \(UTCTimestamp.iso8601(milliseconds: signedDate)) (notAfter \(UTCTimestamp.iso8601(milliseconds: notAfter)))"
        case let .signature(error): "JWS signature refused: \(error)"
        case let .invalidTrustedRoot(reason): "trusted root refused: \(reason)"
        case let .malformedRequestBody(reason): "notification request body \(reason)"
        case let .nested(field, error): "\(field): \(error)"
        }
    }
}
