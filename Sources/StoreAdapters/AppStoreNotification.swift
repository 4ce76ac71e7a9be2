import SubscriptionDomain
import Foundation

/// App Store Server Notifications V2, decoded: one `responseBodyV2DecodedPayload` per line, with
/// `data.signedTransactionInfo` and `data.signedRenewalInfo` given as their decoded JSON objects
/// (the receiving server checks the JWS signatures before writing them). See docs/importers.md.
enum AppStoreNotification {
    static let skippedTypes: Set<String> = [
        "TEST", "CONSUMPTION_REQUEST", "PRICE_INCREASE", "RENEWAL_EXTENSION", "EXTERNAL_PURCHASE_TOKEN",
        "METADATA_UPDATE", "MIGRATION", "RESCIND_CONSENT", "REFUND_DECLINED", "SUMMARY",
    ]

    /// The notification a line holds: the raw body a server receives (`{"signedPayload": JWS}`)
    /// decoded, and `data.signedTransactionInfo` / `data.signedRenewalInfo` decoded where they are
    /// JWS strings; true if any JWS was decoded (its signature not verified).
    ///
    /// With an opener that verifies, the raw body must be a `signedPayload` and its nested
    /// transaction and renewal info JWS strings too (a decoded line proves nothing), and the
    /// notification must be for the profile's app: its `bundleId` and, in production, its
    /// `appAppleId`, where the profile names them; the nested payloads must name the same bundle
    /// and environment as the notification.
    static func unwrap(_ line: PayloadObject, opener: JWSOpener = .unverified, profile: Profile? = nil) throws -> (PayloadObject, Bool) {
        var root = line, jws = false
        if let value = line.fields["signedPayload"], !(value is String) {
            throw EventDecodingError("signedPayload is not a string (a compact JWS)")
        }
        if let signed = line.fields["signedPayload"] as? String, line.fields["notificationType"] == nil {
            root = PayloadObject(fields: try CompactJWS.payload(signed, field: "signedPayload", opener: opener), path: "")
            jws = true
        } else if opener.verifies {
            throw EventDecodingError("not a signed notification ({\"signedPayload\": JWS}): a decoded line cannot be verified (import with --unverified-jws to take it on trust)")
        }
        guard var data = root.fields["data"] as? [String: Any] else { return (root, jws && !opener.verifies) }
        var changed = false
        for key in ["signedTransactionInfo", "signedRenewalInfo"] {
            if let text = data[key] as? String {
                let info = try CompactJWS.payload(text, field: "data." + key, opener: opener)
                if opener.verifies { try checkSameApp(info, as: data, field: "data." + key) }
                data[key] = info
                changed = true
            } else if opener.verifies && data[key] != nil {
                throw EventDecodingError("data.\(key): not a JWS string: a decoded object cannot be verified")
            }
        }
        if opener.verifies, let profile { try checkApp(data, profile: profile) }
        guard changed else { return (root, jws && !opener.verifies) }
        var fields = root.fields
        fields["data"] = data
        return (PayloadObject(fields: fields, path: root.path), !opener.verifies)
    }

    /// The notification is for the profile's app, where the profile names it.
    static func checkApp(_ data: [String: Any], profile: Profile) throws {
        if let bundle = profile.bundleId {
            let found = data["bundleId"] as? String
            guard found == bundle else {
                throw EventDecodingError("data.bundleId \(found.map { "'\($0)'" } ?? "missing") is not the profile's bundleId '\(bundle)'")
            }
        }
        if let appID = profile.appAppleId, (data["environment"] as? String) == "Production" {
            let found = (data["appAppleId"] as? NSNumber)?.int64Value
            guard found == appID else {
                throw EventDecodingError("data.appAppleId \(found.map(String.init) ?? "missing") is not the profile's appAppleId \(appID) (a production notification)")
            }
        }
    }

    /// A nested payload names the same bundle and environment as its notification.
    static func checkSameApp(_ info: [String: Any], as data: [String: Any], field: String) throws {
        for key in ["bundleId", "environment"] {
            if let inner = info[key] as? String, let outer = data[key] as? String, inner != outer {
                throw EventDecodingError("\(field).\(key) '\(inner)' is not the notification's '\(outer)'")
            }
        }
    }

    /// The notification types `map` turns into events (the `switch` below; anything else is unknown).
    static let mappedTypes: Set<String> = [
        "SUBSCRIBED", "OFFER_REDEEMED", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED",
        "EXPIRED", "REFUND", "REFUND_REVERSED", "REVOKE", "DID_CHANGE_RENEWAL_PREF", "RENEWAL_EXTENDED", "ONE_TIME_CHARGE",
    ]

    static func map(_ root: PayloadObject, profile: Profile, userOfTransaction: (String) -> String? = { _ in nil }) throws -> PayloadMapping {
        let type = try root.required("notificationType", for: "a notification")
        let subtype = try root.string("subtype")
        if skippedTypes.contains(type) { return .skipped(type) }
        // Named before anything else is asked of the line (its user, its dates).
        guard mappedTypes.contains(type) else { throw EventDecodingError("unknown notificationType '\(type)'") }
        let what = "notificationType \(type)" + (subtype.map { "/\($0)" } ?? "")
        let id = try root.required("notificationUUID", for: what)
        guard let signed = try root.time("signedDate") else { throw EventDecodingError("\(what) needs signedDate") }
        guard let data = try root.object("data") else { throw EventDecodingError("\(what) needs data") }
        let tx = try data.object("signedTransactionInfo") ?? data.object("transactionInfo")
        let renewal = try data.object("signedRenewalInfo") ?? data.object("renewalInfo")
        let token = { (o: PayloadObject?) throws -> String? in try o?.string("appAccountToken").flatMap { $0.isEmpty ? nil : $0 } }
        // Without appAccountToken (an offer code redeemed outside the app, an older purchase), the
        // user the ledger already knows for the original transaction.
        let original = try tx?.string("originalTransactionId") ?? renewal?.string("originalTransactionId")
        guard let user = try token(tx) ?? token(renewal) ?? original.flatMap(userOfTransaction) else {
            if let original {
                throw EventDecodingError("\(what) has no appAccountToken in its transaction or renewal info, and the ledger knows no user for originalTransactionId \(original): the user cannot be told")
            }
            throw EventDecodingError("\(what) has no appAccountToken in its transaction or renewal info: the user cannot be told")
        }
        let envName = try data.string("environment") ?? tx?.string("environment")
        let environment: StoreEnvironment? = envName.map { $0.lowercased() == "sandbox" ? .sandbox : .production }

        func transaction() throws -> PayloadObject {
            guard let tx else { throw EventDecodingError("\(what) needs data.signedTransactionInfo") }
            return tx
        }
        func event(_ t: EventType, at time: Timestamp, _ set: (inout EventFields) throws -> Void) throws -> PayloadMapping {
            var d = EventFields()
            try set(&d)
            if t.isStoreEvent { d.environment = environment }
            if let field = t.firstMissingField(in: d) { throw EventDecodingError("\(what): the payload lacks what data.\(field.rawValue) needs") }
            return .events([Event(id: id, type: t, user: user, time: time, source: .store, fields: d)])
        }
        func purchaseFields(_ d: inout EventFields, _ t: PayloadObject) throws {
            d.product = try t.required("productId", for: what)
            d.transaction = try t.required("transactionId", for: what)
            d.originalTransaction = try t.string("originalTransactionId")
            guard let expires = try t.time("expiresDate") else { throw EventDecodingError("\(what) needs \(t.name("expiresDate"))") }
            if let bought = try t.time("purchaseDate"), expires < bought {
                throw EventDecodingError("\(t.name("expiresDate")): \(expires) is before purchaseDate \(bought) (seconds instead of milliseconds?)")
            }
            d.expires = expires
            if try t.string("offerDiscountType") == "FREE_TRIAL" { d.offer = .freeTrial } else if try t.int("offerType") != nil { d.offer = .intro }
            d.price = try t.milliunits("price")
            d.currency = try t.string("currency")
            // Kept for the reader (the rules do not use them): the offer code, and whether this
            // transaction was upgraded away from.
            d.extra += [t.extra("offerIdentifier", as: "offerIdentifier"), t.extra("isUpgraded", as: "isUpgraded")].compactMap { $0 }
            // A family member's transaction (Family Sharing): access, not a sale.
            if try t.string("inAppOwnershipType") == "FAMILY_SHARED" { d.familyShared = true }
        }

        switch type {
        case "SUBSCRIBED":
            let t = try transaction()
            return try event(.purchase, at: try t.time("purchaseDate") ?? signed) { (d) throws in try purchaseFields(&d, t) }
        case "OFFER_REDEEMED" where subtype == "INITIAL_BUY" || subtype == "RESUBSCRIBE":
            let t = try transaction()
            return try event(.purchase, at: try t.time("purchaseDate") ?? signed) { (d) throws in try purchaseFields(&d, t) }
        case "DID_RENEW":
            let t = try transaction()
            return try event(.renewal, at: try t.time("purchaseDate") ?? signed) { (d) throws in
                try purchaseFields(&d, t)
                d.offer = nil
            }
        case "DID_CHANGE_RENEWAL_STATUS":
            switch subtype {
            case "AUTO_RENEW_DISABLED": return try event(.cancellation, at: signed) { $0.reason = "auto_renew_disabled" }
            case "AUTO_RENEW_ENABLED": return try event(.uncancellation, at: signed) { _ in }
            default: throw EventDecodingError("\(what): subtype must be AUTO_RENEW_DISABLED or AUTO_RENEW_ENABLED")
            }
        case "DID_FAIL_TO_RENEW":
            return try event(.billingIssue, at: signed) { (d) throws in
                if subtype == "GRACE_PERIOD" {
                    guard let ends = try renewal?.time("gracePeriodExpiresDate") else {
                        throw EventDecodingError("\(what) needs data.signedRenewalInfo.gracePeriodExpiresDate")
                    }
                    d.graceExpires = ends
                }
            }
        case "GRACE_PERIOD_EXPIRED":
            // The end of the one billing issue's grace, which the billing_issue of DID_FAIL_TO_RENEW /
            // GRACE_PERIOD already times (gracePeriodExpiresDate): not a second failed payment.
            return .skipped(type)
        case "EXPIRED":
            // A transaction the customer upgraded away from (isUpgraded) ends; the subscription they
            // are entitled to is the upgrade's, which goes on.
            if try tx?.bool("isUpgraded") == true { return .skipped("EXPIRED (upgraded transaction)") }
            let at = subtype == "VOLUNTARY" ? (try tx?.time("expiresDate") ?? signed) : signed
            return try event(.expiration, at: min(at, signed)) { $0.reason = subtype?.lowercased() }
        case "REFUND":
            let t = try transaction()
            return try event(.refund, at: try t.time("revocationDate") ?? signed) { (d) throws in
                d.transaction = try t.required("transactionId", for: what)
                d.price = try t.milliunits("price")
                d.currency = try t.string("currency")
                switch try t.int("revocationReason") {
                case nil: break
                case 1: d.reason = "app_issue"
                case 0: d.reason = "other"
                case let n?: d.reason = "revocation_reason_\(n)"
                }
            }
        case "REFUND_REVERSED":
            let t = try transaction()
            return try event(.refundReversed, at: signed) { (d) throws in d.transaction = try t.required("transactionId", for: what) }
        case "REVOKE":
            let t = try transaction()
            return try event(.revoke, at: try t.time("revocationDate") ?? signed) { $0.reason = "family_sharing_revoked" }
        case "DID_CHANGE_RENEWAL_PREF", "OFFER_REDEEMED":
            if subtype == "UPGRADE" {
                let t = try transaction()
                // An upgrade is charged at once: its transaction info is a new transaction with its
                // own id and price, which the product change carries (revenue; a later REFUND of it).
                return try event(.productChange, at: try t.time("purchaseDate") ?? signed) { (d) throws in
                    d.product = try t.required("productId", for: what)
                    d.expires = try t.time("expiresDate")
                    d.effective = .immediate
                    d.transaction = try t.string("transactionId")
                    if d.transaction != nil {
                        d.price = try t.milliunits("price")
                        d.currency = try t.string("currency")
                    }
                }
            }
            if type == "OFFER_REDEEMED" && subtype != "DOWNGRADE" {
                return .skipped("OFFER_REDEEMED (for the next renewal)")
            }
            return try event(.productChange, at: signed) { (d) throws in
                d.product = try renewal?.string("autoRenewProductId") ?? tx?.string("productId")
                d.effective = .nextRenewal
            }
        case "RENEWAL_EXTENDED":
            let t = try transaction()
            return try event(.productChange, at: signed) { (d) throws in
                d.product = try t.required("productId", for: what)
                d.expires = try t.time("expiresDate")
                d.reason = "renewal_extended"
            }
        case "ONE_TIME_CHARGE":
            let t = try transaction()
            return try event(.consumablePurchase, at: try t.time("purchaseDate") ?? signed) { (d) throws in
                let product = try t.required("productId", for: what)
                d.product = product
                d.transaction = try t.required("transactionId", for: what)
                let quantity = try t.int("quantity") ?? 1
                guard quantity <= ValueRanges.quantities.upperBound else {
                    throw EventDecodingError("\(t.name("quantity")): \(quantity) is out of range (accepted: up to \(ValueRanges.quantities.upperBound))")
                }
                d.quantity = profile.credits(for: product, quantity: Int(quantity))
                d.price = try t.milliunits("price")
                d.currency = try t.string("currency")
            }
        default:
            throw EventDecodingError("unknown notificationType '\(type)'")
        }
    }
}
