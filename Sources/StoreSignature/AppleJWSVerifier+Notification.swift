import Foundation

extension AppleJWSVerifier {
    /// Verifies a notification's `signedPayload` and the JWS strings in its `data`
    /// (`signedTransactionInfo`, `signedRenewalInfo`) with the same checks. A nested JWS without
    /// its own `signedDate` is checked at the notification's.
    public func verifyNotification(signedPayload: some StringProtocol) throws(AppleJWSError) -> AppleVerifiedNotification {
        let outer = try verify(signedPayload)
        let nested: NestedSignedData
        do {
            nested = try JSONDecoder().decode(NestedSignedData.self, from: Data(outer.payload))
        } catch {
            throw .malformedPayload("data is not an object whose signedTransactionInfo and signedRenewalInfo are strings")
        }
        var transaction: AppleVerifiedPayload?
        var renewal: AppleVerifiedPayload?
        if let text = nested.data?.signedTransactionInfo {
            do { transaction = try verify(text, fallbackSignedDate: outer.signedDate) } catch {
                throw .nested(field: "data.signedTransactionInfo", error)
            }
        }
        if let text = nested.data?.signedRenewalInfo {
            do { renewal = try verify(text, fallbackSignedDate: outer.signedDate) } catch {
                throw .nested(field: "data.signedRenewalInfo", error)
            }
        }
        return AppleVerifiedNotification(notification: outer, transactionInfo: transaction, renewalInfo: renewal)
    }

    /// Verifies the HTTP body Apple POSTs to a notification endpoint: `{"signedPayload": "…"}`.
    public func verifyNotificationRequestBody(_ body: [UInt8]) throws(AppleJWSError) -> AppleVerifiedNotification {
        guard body.count <= maximumLength + 1024 else { throw .tooLarge(bytes: body.count, limit: maximumLength + 1024) }
        let parsed: RequestBody
        do {
            parsed = try JSONDecoder().decode(RequestBody.self, from: Data(body))
        } catch {
            throw .malformedRequestBody("is not a JSON object with a string signedPayload")
        }
        return try verifyNotification(signedPayload: parsed.signedPayload)
    }
}

/// The JWS strings a notification payload's `data` may carry.
struct NestedSignedData: Decodable {
    struct Payload: Decodable {
        let signedTransactionInfo: String?
        let signedRenewalInfo: String?
    }
    let data: Payload?
}

/// The body of Apple's notification POST.
struct RequestBody: Decodable {
    let signedPayload: String
}
