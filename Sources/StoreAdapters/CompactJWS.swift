import SubscriptionDomain
import Foundation

/// A JWS in compact serialization (`header.payload.signature`, each base64url), as the App Store
/// signs `signedPayload`, `signedTransactionInfo` and `signedRenewalInfo`. Only the payload is read:
/// the signature and the header's x5c certificate chain are **not** verified (docs/importers.md).
enum CompactJWS {
    /// The JSON object the JWS `text` carries, opened by `opener`; `field` names it in errors.
    static func payload(_ text: String, field: String, opener: JWSOpener = .unverified) throws -> [String: Any] {
        let bytes: [UInt8]
        do {
            bytes = try opener.open(text)
        } catch let e as EventDecodingError {
            throw EventDecodingError("\(field): \(e.reason)")
        } catch {
            throw EventDecodingError("\(field): \(error)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let fields = object as? [String: Any] else {
            throw EventDecodingError("\(field): the JWS payload is not a base64url-encoded JSON object")
        }
        return fields
    }

    /// The payload bytes of a compact JWS, read without any check of its signature.
    static func payloadBytes(_ text: String) throws -> [UInt8] {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty else {
            throw EventDecodingError("not a compact JWS (header.payload.signature)")
        }
        guard let bytes = base64url(parts[1]) else {
            throw EventDecodingError("the JWS payload is not a base64url-encoded JSON object")
        }
        return [UInt8](bytes)
    }

    /// Decodes base64url without padding (RFC 7515 §2).
    static func base64url(_ s: Substring) -> Data? {
        var b = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if b.count % 4 == 1 { return nil }
        b += String(repeating: "=", count: (4 - b.count % 4) % 4)
        return Data(base64Encoded: b)
    }
}
