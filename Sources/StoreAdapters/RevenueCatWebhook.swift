import SubscriptionDomain
/// RevenueCat webhooks: one request body (`{"api_version":…,"event":{…}}`) or bare event per line.
/// See docs/importers.md for the field-by-field mapping.
enum RevenueCatWebhook {
    static let skippedTypes: Set<String> = [
        "TEST", "SUBSCRIBER_ALIAS", "INVOICE_ISSUANCE", "VIRTUAL_CURRENCY_TRANSACTION",
        "EXPERIMENT_ENROLLMENT", "REFUND_REQUESTED",
    ]

    static func map(_ root: PayloadObject, profile: Profile, knownUser: (String) -> Bool = { _ in false }) throws -> PayloadMapping {
        let e = try root.object("event") ?? root
        let type = try e.required("type", for: "a webhook")
        if skippedTypes.contains(type) { return .skipped(type) }
        let what = "event type \(type)"
        let id = try e.required("id", for: what)
        guard let stamp = try e.time("event_timestamp_ms") else { throw EventDecodingError("\(what) needs \(e.name("event_timestamp_ms"))") }
        let environment: StoreEnvironment? = try e.string("environment").map { $0 == "SANDBOX" ? .sandbox : .production }
        var user = try e.string("app_user_id")

        func event(_ t: EventType, at time: Timestamp, _ set: (inout EventFields) throws -> Void) throws -> PayloadMapping {
            var d = EventFields()
            try set(&d)
            d.environment = environment
            if let field = t.firstMissingField(in: d) { throw EventDecodingError("\(what): the payload lacks what data.\(field.rawValue) needs") }
            guard let user, !user.isEmpty else { throw EventDecodingError("\(what) needs \(e.name("app_user_id"))") }
            if t != .transfer, !knownUser(user) {
                // RevenueCat: look a user up by app_user_id, then original_app_user_id and aliases.
                // A purchase made before logging in ($RCAnonymousID:…) keeps its user, the first id
                // the ledger knew, when later events come under the identified app_user_id.
                let others = try [e.string("original_app_user_id")].compactMap { $0 } + e.strings("aliases")
                // The id it came under is kept (`AppUserAlias`): the log's index finds the subscriber by it.
                if let known = others.first(where: { !$0.isEmpty && $0 != user && knownUser($0) }) {
                    if let alias = AppUserAlias.extraField(user) { d.extra.append(alias) }
                    return .events([Event(id: id, type: t, user: known, time: time, source: .server, fields: d)])
                }
            }
            return .events([Event(id: id, type: t, user: user, time: time, source: .server, fields: d)])
        }
        func money(_ d: inout EventFields, refunded: Bool = false) throws {
            d.price = try e.amount("price_in_purchased_currency", refunded: refunded) ?? e.amount("price", refunded: refunded)
            d.currency = try e.string("currency")
        }
        func subscriptionFields(_ d: inout EventFields) throws {
            d.product = try e.required("product_id", for: what)
            d.transaction = try e.required("transaction_id", for: what)
            d.originalTransaction = try e.string("original_transaction_id")
            guard let expires = try e.time("expiration_at_ms") else { throw EventDecodingError("\(what) needs \(e.name("expiration_at_ms"))") }
            d.expires = expires
            try money(&d)
            // Kept as written: the offer code (for the reader), and the share of the price the developer
            // keeps after the store's fee (a store field: net revenue reads it, `StoreField`).
            d.extra += [e.extra("offer_code", as: "offerCode"), e.extra("takehome_percentage", as: StoreField.takehomePercentage.rawValue)].compactMap { $0 }
            // A family member's access (Family Sharing): access, not a sale.
            if e.fields["is_family_share"] as? Bool == true { d.familyShared = true }
        }
        let purchased = try e.time("purchased_at_ms") ?? stamp

        switch type {
        case "INITIAL_PURCHASE":
            return try event(.purchase, at: purchased) { (d) throws in
                try subscriptionFields(&d)
                switch try e.string("period_type") {
                case "TRIAL": d.offer = .freeTrial
                case "INTRO": d.offer = .intro
                default: break
                }
            }
        case "RENEWAL":
            return try event(.renewal, at: purchased) { (d) throws in try subscriptionFields(&d) }
        case "CANCELLATION":
            let reason = try e.string("cancel_reason")
            if reason == "CUSTOMER_SUPPORT" {
                return try event(.refund, at: stamp) { (d) throws in
                    d.transaction = try e.required("transaction_id", for: what)
                    try money(&d, refunded: true)
                    d.reason = "customer_support"
                }
            }
            if reason == "BILLING_ERROR" {
                // The twin of BILLING_ISSUE, fired for the same failed payment: not the user turning
                // auto-renew off. BILLING_ISSUE carries it (and its grace).
                return .skipped("CANCELLATION BILLING_ERROR")
            }
            return try event(.cancellation, at: stamp) { $0.reason = reason?.lowercased() }
        case "UNCANCELLATION":
            return try event(.uncancellation, at: stamp) { _ in }
        case "NON_RENEWING_PURCHASE":
            return try event(.consumablePurchase, at: purchased) { (d) throws in
                let product = try e.required("product_id", for: what)
                d.product = product
                d.transaction = try e.required("transaction_id", for: what)
                d.quantity = profile.credits(for: product, quantity: 1)
                try money(&d)
            }
        case "BILLING_ISSUE":
            return try event(.billingIssue, at: stamp) { (d) throws in d.graceExpires = try e.time("grace_period_expiration_at_ms") }
        case "EXPIRATION":
            let reason = try e.string("expiration_reason")
            let at = reason == "BILLING_ERROR" ? stamp : min(try e.time("expiration_at_ms") ?? stamp, stamp)
            return try event(.expiration, at: at) { $0.reason = reason?.lowercased() }
        case "PRODUCT_CHANGE":
            return try event(.productChange, at: stamp) { (d) throws in
                d.product = try e.string("new_product_id") ?? e.required("product_id", for: what)
                d.effective = .nextRenewal
            }
        case "TRANSFER":
            let from = try e.strings("transferred_from"), to = try e.strings("transferred_to")
            guard let source = from.first, let target = to.first else {
                throw EventDecodingError("\(what) needs \(e.name("transferred_from")) and \(e.name("transferred_to"))")
            }
            user = source
            return try event(.transfer, at: stamp) { $0.to = target }
        case "SUBSCRIPTION_EXTENDED":
            return try event(.productChange, at: stamp) { (d) throws in
                d.product = try e.required("product_id", for: what)
                d.expires = try e.time("expiration_at_ms")
                d.reason = "subscription_extended"
            }
        case "SUBSCRIPTION_PAUSED":
            // Google Play: paused at the end of the period; EXPIRATION (reason SUBSCRIPTION_PAUSED) and
            // a RENEWAL on resuming follow.
            return try event(.pause, at: stamp) { (d) throws in d.resumesAt = try e.time("auto_resume_at_ms") }
        case "REFUND_REVERSED":
            return try event(.refundReversed, at: stamp) { (d) throws in d.transaction = try e.required("transaction_id", for: what) }
        case "TEMPORARY_ENTITLEMENT_GRANT":
            return try event(.purchase, at: stamp) { (d) throws in
                d.product = try e.required("product_id", for: what)
                d.transaction = try e.string("transaction_id") ?? "temporary-\(id)"
                guard let expires = try e.time("expiration_at_ms") else { throw EventDecodingError("\(what) needs \(e.name("expiration_at_ms"))") }
                d.expires = expires
                d.price = .zero
                d.extra = [StoreField.temporaryGrant.field(rawJSON: "true")]
            }
        default:
            throw EventDecodingError("unknown event type '\(type)'")
        }
    }
}
