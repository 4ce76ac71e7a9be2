import Foundation
import Testing
@testable import SubscriptionDomain
import StoreAdapters
import StoreFixtures


@Suite struct AppStoreNotificationMapping {
    typealias F = StoreFixtures

    @Test func subscribedIsAPurchaseWithTrialPriceAndEnvironment() throws {
        let trial = try F.event(F.apple("SUBSCRIBED", "INITIAL_BUY", tx: F.transaction(["offerType": 1, "offerDiscountType": "FREE_TRIAL", "price": 0])), .appstore)
        #expect(trial.type == .purchase && trial.allFields.offer == .freeTrial && trial.allFields.price == .zero)
        #expect(trial.id == "n-SUBSCRIBED-INITIAL_BUY" && trial.user == F.user && trial.time == Timestamp(milliseconds: F.t0))
        let resub = try F.event(F.apple("SUBSCRIBED", "RESUBSCRIBE", env: "Sandbox"), .appstore)
        #expect(resub.type == .purchase && resub.allFields.offer == nil && resub.allFields.price == Money.parse("9.99") && resub.allFields.environment == .sandbox)
        #expect(resub.allFields.transaction == "t2" && resub.allFields.originalTransaction == "t1" && resub.allFields.expires == Timestamp(milliseconds: F.t0 + 2_592_000_000))
    }

    @Test func everyEntitlementTypeMapsToItsCanonicalEvent() throws {
        let grace = ["appAccountToken": F.user, "gracePeriodExpiresDate": F.t0 + 86_400_000 * 16] as [String: Any]
        let cases: [(String, String?, [String: Any]?, [String: Any]?, EventType)] = [
            ("DID_RENEW", nil, F.transaction(), nil, .renewal),
            ("DID_RENEW", "BILLING_RECOVERY", F.transaction(), nil, .renewal),
            ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", F.transaction(), nil, .cancellation),
            ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", F.transaction(), nil, .uncancellation),
            ("DID_FAIL_TO_RENEW", nil, F.transaction(), nil, .billingIssue),
            ("DID_FAIL_TO_RENEW", "GRACE_PERIOD", F.transaction(), grace, .billingIssue),
            ("EXPIRED", "VOLUNTARY", F.transaction(), nil, .expiration),
            ("EXPIRED", "BILLING_RETRY", F.transaction(), nil, .expiration),
            ("EXPIRED", "PRICE_INCREASE", F.transaction(), nil, .expiration),
            ("EXPIRED", "PRODUCT_NOT_FOR_SALE", F.transaction(), nil, .expiration),
            ("REFUND", nil, F.transaction(["revocationDate": F.t0 + 1000]), nil, .refund),
            ("REFUND_REVERSED", nil, F.transaction(), nil, .refundReversed),
            ("REVOKE", nil, F.transaction(["revocationDate": F.t0 + 1000, "inAppOwnershipType": "FAMILY_SHARED"]), nil, .revoke),
            ("DID_CHANGE_RENEWAL_PREF", "UPGRADE", F.transaction(), nil, .productChange),
            ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", F.transaction(), ["appAccountToken": F.user, "autoRenewProductId": "handz.lite"], .productChange),
            ("OFFER_REDEEMED", "INITIAL_BUY", F.transaction(["offerType": 2]), nil, .purchase),
            ("OFFER_REDEEMED", "UPGRADE", F.transaction(), nil, .productChange),
            ("RENEWAL_EXTENDED", nil, F.transaction(), nil, .productChange),
            ("ONE_TIME_CHARGE", nil, F.transaction(["productId": "howru_sms_50", "type": "Consumable", "quantity": 2]), nil, .consumablePurchase),
        ]
        for (type, subtype, tx, renewal, expected) in cases {
            let e = try F.event(F.apple(type, subtype, tx: tx, renewal: renewal), .appstore, profile: .howru)
            #expect(e.type == expected, "\(type)/\(subtype ?? "-")")
        }
        let graceEvent = try F.event(F.apple("DID_FAIL_TO_RENEW", "GRACE_PERIOD", renewal: grace), .appstore)
        #expect(graceEvent.allFields.graceExpires == Timestamp(milliseconds: F.t0 + 86_400_000 * 16))
        let downgrade = try F.event(F.apple("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", renewal: ["appAccountToken": F.user, "autoRenewProductId": "handz.lite"]), .appstore)
        #expect(downgrade.allFields.product == "handz.lite" && downgrade.allFields.effective == .nextRenewal)
        let refund = try F.event(F.apple("REFUND", tx: F.transaction(["revocationDate": F.t0 + 1000])), .appstore)
        #expect(refund.time == Timestamp(milliseconds: F.t0 + 1000) && refund.allFields.transaction == "t2" && refund.allFields.price == Money.parse("9.99"))
        let credits = try F.event(F.apple("ONE_TIME_CHARGE", tx: F.transaction(["productId": "howru_sms_50", "quantity": 2])), .appstore, profile: .howru)
        #expect(credits.allFields.quantity == 100)
        #expect(try F.event(F.apple("EXPIRED", "PRICE_INCREASE"), .appstore).allFields.reason == "price_increase")
    }

    @Test func refundReasonOfferCodeAndUpgradedFlagAreCarriedIntoTheEventFields() throws {
        let refund = try F.event(F.apple("REFUND", tx: F.transaction(["revocationDate": F.t0 + 1000, "revocationReason": 1])), .appstore)
        #expect(refund.allFields.reason == "app_issue")
        #expect(try F.event(F.apple("REFUND", tx: F.transaction(["revocationDate": F.t0 + 1000, "revocationReason": 0])), .appstore).allFields.reason == "other")
        let offer = try F.event(F.apple("OFFER_REDEEMED", "INITIAL_BUY", tx: F.transaction(["offerType": 3, "offerIdentifier": "WINBACK50"])), .appstore)
        #expect(offer.allFields.offer == .intro && offer.allFields.extra == [.init(name: "offerIdentifier", rawJSON: #""WINBACK50""#)])
        let upgraded = try F.event(F.apple("DID_RENEW", tx: F.transaction(["isUpgraded": true])), .appstore)
        #expect(upgraded.allFields.extra == [.init(name: "isUpgraded", rawJSON: "true")])
        #expect(try F.event(F.apple("DID_RENEW"), .appstore).allFields.extra.isEmpty, "nothing added when absent")
    }

    @Test func typesThatCarryNothingAreSkippedAndNamed() throws {
        for type in ["TEST", "CONSUMPTION_REQUEST", "PRICE_INCREASE", "RENEWAL_EXTENSION", "REFUND_DECLINED", "GRACE_PERIOD_EXPIRED"] {
            #expect(try F.map(F.apple(type), .appstore) == .skipped(type))
        }
    }

    @Test func malformedPayloadsAreRejectedWithTheReason() {
        let cases: [(String, String)] = [
            (F.apple("SUBSCRIBED", "INITIAL_BUY", tx: F.transaction(["appAccountToken": NSNull()])), "notificationType SUBSCRIBED/INITIAL_BUY has no appAccountToken in its transaction or renewal info, and the ledger knows no user for originalTransactionId t1: the user cannot be told"),
            (F.json(["notificationType": "DID_RENEW", "notificationUUID": "x", "signedDate": F.t0, "data": ["signedTransactionInfo": "eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.sig"]]), "data.signedTransactionInfo: the JWS payload is not a base64url-encoded JSON object"),
            (F.json(["notificationType": "DID_RENEW", "notificationUUID": "x", "signedDate": F.t0, "data": ["signedTransactionInfo": "eyJhbGciOiJFUzI1NiJ9.e30.sig"]]), "notificationType DID_RENEW has no appAccountToken in its transaction or renewal info: the user cannot be told"),
            (F.json(["signedPayload": "not-a-jws"]), "signedPayload: not a compact JWS (header.payload.signature)"),
            (F.apple("DID_RENEW", tx: F.transaction(["expiresDate": (F.t0 + 2_592_000_000) / 1000])), "data.signedTransactionInfo.expiresDate: 1777592000 is seconds, not milliseconds (as milliseconds it is before March 1973)"),
            (F.apple("DID_RENEW", tx: F.transaction(["expiresDate": F.t0 - 1000])), "data.signedTransactionInfo.expiresDate: 2026-03-31T23:33:19Z is before purchaseDate 2026-03-31T23:33:20Z (seconds instead of milliseconds?)"),
            (F.apple("MYSTERY"), "unknown notificationType 'MYSTERY'"),
            (F.apple("MYSTERY", tx: F.transaction(["appAccountToken": NSNull()])), "unknown notificationType 'MYSTERY'"),
            (F.apple("DID_RENEW", tx: F.transaction(["expiresDate": NSNull()])), "notificationType DID_RENEW needs data.signedTransactionInfo.expiresDate"),
            (F.apple("DID_FAIL_TO_RENEW", "GRACE_PERIOD"), "notificationType DID_FAIL_TO_RENEW/GRACE_PERIOD needs data.signedRenewalInfo.gracePeriodExpiresDate"),
            (F.json(["notificationUUID": "x"]), "a notification needs notificationType"),
            ("[1,2]", "not a JSON object"),
        ]
        for (line, reason) in cases {
            let error = #expect(throws: EventDecodingError.self, "accepted: \(line)") { try F.map(line, .appstore) }
            #expect(error?.reason == reason, "\(line)")
        }
    }
}

@Suite struct RevenueCatWebhookMapping {
    typealias F = StoreFixtures

    @Test func everyWebhookTypeMapsToItsCanonicalEvent() throws {
        let cases: [(String, [String: Any], EventType)] = [
            ("INITIAL_PURCHASE", ["period_type": "TRIAL", "price": 0, "price_in_purchased_currency": 0], .purchase),
            ("RENEWAL", ["is_trial_conversion": true], .renewal),
            ("CANCELLATION", ["cancel_reason": "UNSUBSCRIBE"], .cancellation),
            ("CANCELLATION", ["cancel_reason": "CUSTOMER_SUPPORT"], .refund),
            ("UNCANCELLATION", [:], .uncancellation),
            ("NON_RENEWING_PURCHASE", ["product_id": "howru_sms_20"], .consumablePurchase),
            ("BILLING_ISSUE", ["grace_period_expiration_at_ms": F.t0 + 86_400_000 * 6], .billingIssue),
            ("EXPIRATION", ["expiration_reason": "UNSUBSCRIBE"], .expiration),
            ("EXPIRATION", ["expiration_reason": "BILLING_ERROR"], .expiration),
            ("PRODUCT_CHANGE", ["new_product_id": "howru_family_monthly"], .productChange),
            ("TRANSFER", ["transferred_from": ["old-user"], "transferred_to": ["new-user"]], .transfer),
            ("SUBSCRIPTION_EXTENDED", [:], .productChange),
            ("REFUND_REVERSED", [:], .refundReversed),
            ("TEMPORARY_ENTITLEMENT_GRANT", [:], .purchase),
            ("SUBSCRIPTION_PAUSED", ["auto_resume_at_ms": F.t0 + 86_400_000 * 60], .pause),
        ]
        for (type, extra, expected) in cases {
            #expect(try F.event(F.revenuecat(type, extra), .revenuecat, profile: .howru).type == expected, "\(type)")
        }
        let trial = try F.event(F.revenuecat("INITIAL_PURCHASE", ["period_type": "TRIAL", "price": 0, "price_in_purchased_currency": 0]), .revenuecat)
        #expect(trial.allFields.offer == .freeTrial && trial.allFields.price == .zero && trial.time == Timestamp(milliseconds: F.t0))
        #expect(try F.event(F.revenuecat("RENEWAL"), .revenuecat).allFields.price == Money.parse("9.99"))
        let refund = try F.event(F.revenuecat("CANCELLATION", ["cancel_reason": "CUSTOMER_SUPPORT"]), .revenuecat)
        #expect(refund.allFields.transaction == "t2" && refund.allFields.reason == "customer_support")
        let transfer = try F.event(F.revenuecat("TRANSFER", ["transferred_from": ["old-user"], "transferred_to": ["new-user"]]), .revenuecat)
        #expect(transfer.user == "old-user" && transfer.allFields.to == "new-user")
        #expect(try F.event(F.revenuecat("NON_RENEWING_PURCHASE", ["product_id": "howru_sms_20"]), .revenuecat, profile: .howru).allFields.quantity == 20)
        #expect(try F.event(F.revenuecat("BILLING_ISSUE", ["grace_period_expiration_at_ms": F.t0 + 1000]), .revenuecat).allFields.graceExpires == Timestamp(milliseconds: F.t0 + 1000))
        #expect(try F.event(F.revenuecat("RENEWAL", ["environment": "SANDBOX"]), .revenuecat).allFields.environment == .sandbox)
        #expect(try F.map(F.revenuecat("CANCELLATION", ["cancel_reason": "BILLING_ERROR"]), .revenuecat) == .skipped("CANCELLATION BILLING_ERROR"))
    }

    @Test func offerCodeAndTakehomePercentageAreCarriedIntoTheEventFields() throws {
        let e = try F.event(F.revenuecat("INITIAL_PURCHASE", ["offer_code": "SPRING", "takehome_percentage": 0.85]), .revenuecat)
        #expect(e.allFields.extra == [.init(name: "offerCode", rawJSON: #""SPRING""#), .init(name: "takehomePercentage", rawJSON: "0.85")])
        #expect(try F.event(F.revenuecat("RENEWAL"), .revenuecat).allFields.extra.isEmpty)
    }

    @Test func subscriptionPausedIsAPauseResumingAtAutoResumeAt() throws {
        let paused = try F.event(F.revenuecat("SUBSCRIPTION_PAUSED", ["store": "PLAY_STORE", "auto_resume_at_ms": F.t0 + 86_400_000 * 60]), .revenuecat)
        #expect(paused.type == .pause && paused.id == "rc-SUBSCRIPTION_PAUSED" && paused.user == F.user && paused.source == .server)
        #expect(paused.time == Timestamp(milliseconds: F.t0 + 60_000), "the event's time, not the purchase's")
        #expect(paused.allFields.resumesAt == Timestamp(milliseconds: F.t0 + 86_400_000 * 60) && paused.allFields.environment == .production)
        #expect(paused.allFields.product == nil && paused.allFields.transaction == nil && paused.allFields.expires == nil, "a pause carries only resumesAt")
        let open = try F.event(F.revenuecat("SUBSCRIPTION_PAUSED"), .revenuecat)
        #expect(open.type == .pause && open.allFields.resumesAt == nil)
        let sandbox = try F.event(F.revenuecat("SUBSCRIPTION_PAUSED", ["environment": "SANDBOX", "auto_resume_at_ms": NSNull()]), .revenuecat)
        #expect(sandbox.allFields.environment == .sandbox && sandbox.allFields.resumesAt == nil)
        for (value, reason) in [(F.t0 * 1000 as Any, "is out of range"), ("soon" as Any, "expected a number"), (1.5 as Any, "is not a whole number")] {
            do {
                _ = try F.map(F.revenuecat("SUBSCRIPTION_PAUSED", ["auto_resume_at_ms": value]), .revenuecat)
                Issue.record("accepted auto_resume_at_ms \(value)")
            } catch {
                let text = (error as? EventDecodingError)?.reason ?? ""
                #expect(text.hasPrefix("event.auto_resume_at_ms: ") && text.contains(reason), "\(text)")
            }
        }
    }

    @Test func typesThatCarryNothingAreSkipped() throws {
        for type in ["TEST", "SUBSCRIBER_ALIAS", "INVOICE_ISSUANCE", "VIRTUAL_CURRENCY_TRANSACTION", "EXPERIMENT_ENROLLMENT", "REFUND_REQUESTED"] {
            #expect(try F.map(F.revenuecat(type), .revenuecat) == .skipped(type))
        }
    }

    @Test func malformedWebhooksAreRejectedWithTheReason() {
        let cases: [(String, String)] = [
            (F.revenuecat("RENEWAL", ["expiration_at_ms": NSNull()]), "event type RENEWAL needs event.expiration_at_ms"),
            (F.revenuecat("RENEWAL", ["app_user_id": NSNull()]), "event type RENEWAL needs event.app_user_id"),
            (F.revenuecat("TRANSFER"), "event type TRANSFER needs event.transferred_from and event.transferred_to"),
            (F.revenuecat("MYSTERY"), "unknown event type 'MYSTERY'"),
            (F.revenuecat("RENEWAL", ["price_in_purchased_currency": "9.99"]), "event.price_in_purchased_currency: expected a number"),
            (F.revenuecat("RENEWAL", ["id": NSNull()]), "event type RENEWAL needs event.id"),
        ]
        for (line, reason) in cases {
            let error = #expect(throws: EventDecodingError.self, "accepted: \(line)") { try F.map(line, .revenuecat) }
            #expect(error?.reason == reason, "\(line)")
        }
    }
}
