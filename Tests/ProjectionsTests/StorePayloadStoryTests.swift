import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections
@testable import ProjectionStorage
import StoreAdapters
import Ingest

/// A short store story: payload lines written from Apple's and RevenueCat's public documentation,
/// imported into a fresh log, then asked what the ledger makes of them.
struct PayloadStory {
    let log: TestLog
    let summary: EventImporter.Summary
    let rejected: [EventImporter.Rejection]
    /// The profile the story is imported and folded under.
    let profile: Profile

    static let user = "6f1c2d3e-5a4b-4c3d-9e2f-0000000000bb"
    /// 2026-03-31T23:33:20Z in milliseconds.
    static let t0: Int64 = 1_775_000_000_000
    static let day: Int64 = 86_400_000

    /// Imports `lines` into `log` (a fresh one when nil).
    init(_ source: PayloadSource, _ lines: [[String: Any]], batchSize: Int = 1000, into existing: TestLog? = nil,
         profile: Profile = .handz) throws {
        log = try existing ?? TestLog([])
        self.profile = profile
        let imported = try log.append(lines.map(Self.json), file: "story", batch: batchSize, profile: profile, source: source)
        summary = imported.summary
        rejected = imported.rejections
    }

    static func json(_ o: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The instant `days` after t0.
    static func at(days: Double) -> Timestamp {
        Timestamp(milliseconds: t0 + Int64(days * Double(day)))
    }

    func snapshot(days: Double, includeSandbox: Bool = false) throws -> LedgerSnapshot {
        var o = ReplayOptions(profile: profile, asOf: Self.at(days: days))
        o.includeSandbox = includeSandbox
        return try Replay.run(directory: log.path, options: o)
    }

    /// A RevenueCat webhook body; `extra` overrides the event's fields.
    static func revenuecat(_ id: String, _ type: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        var e: [String: Any] = ["id": id, "type": type, "app_user_id": user, "original_app_user_id": user, "aliases": [user],
                                "event_timestamp_ms": t0, "environment": "PRODUCTION", "store": "APP_STORE",
                                "product_id": "handz.pro.monthly", "period_type": "NORMAL", "transaction_id": "rc-t1", "original_transaction_id": "rc-t1",
                                "purchased_at_ms": t0, "expiration_at_ms": t0 + 30 * day, "price": 9.99, "price_in_purchased_currency": 9.99,
                                "currency": "USD", "entitlement_ids": ["pro"]]
        e.merge(extra) { $1 }
        return ["api_version": "1.0", "event": e]
    }

    /// An App Store Server Notification V2, decoded; `tx` overrides the transaction info's fields.
    static func apple(_ uuid: String, _ type: String, _ subtype: String? = nil, signed: Int64 = t0, tx: [String: Any] = [:],
                      renewal: [String: Any]? = nil, environment: String = "Production") -> [String: Any] {
        var t: [String: Any] = ["appAccountToken": user, "bundleId": "com.handz.app", "productId": "handz.pro.monthly",
                                "transactionId": "as-t1", "originalTransactionId": "as-t1", "purchaseDate": t0, "originalPurchaseDate": t0,
                                "expiresDate": t0 + 30 * day, "price": 9990, "currency": "USD", "environment": environment,
                                "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": signed]
        t.merge(tx) { $1 }
        var data: [String: Any] = ["environment": environment, "bundleId": "com.handz.app", "signedTransactionInfo": t]
        if let renewal { data["signedRenewalInfo"] = renewal }
        var n: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "signedDate": signed, "version": "2.0", "data": data]
        if let subtype { n["subtype"] = subtype }
        return n
    }
}

/// The store importers' edge cases (duplicates, aliases, missing tokens, late deliveries), one story each.
@Suite struct StorePayloadStories {
    typealias S = PayloadStory

    @Test func aRevenueCatRefundWithANegativePriceEndsAccessAndReachesTheBooks() throws {
        let story = try S(.revenuecat, [
            S.revenuecat("rc-1", "INITIAL_PURCHASE"),
            S.revenuecat("rc-2", "CANCELLATION", ["cancel_reason": "CUSTOMER_SUPPORT", "event_timestamp_ms": S.t0 + 5 * S.day,
                                                  "price": -9.99, "price_in_purchased_currency": -9.99]),
        ])
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        #expect(story.summary.appended == 2)
        let after = try story.snapshot(days: 6)
        #expect(after.plan(of: S.user).planState == .free)
        #expect(after.counts()["refund"] == 1)
        let line = after.revenue().lines.first { $0.currency == "USD" }
        #expect(line?.gross == Money.parse("9.99") && line?.refunded == Money.parse("9.99") && line?.net == .zero)
    }

    @Test func aTemporaryEntitlementGrantBridgesThePurchaseWithoutReplacingItOrCountingAsAStart() throws {
        // RevenueCat grants access while the store cannot confirm a purchase, then sends the
        // INITIAL_PURCHASE once it does: the purchase is earlier (purchased_at_ms) than the grant.
        let grant = S.revenuecat("rc-g", "TEMPORARY_ENTITLEMENT_GRANT", ["event_timestamp_ms": S.t0 + 120_000, "purchased_at_ms": S.t0 + 120_000,
                                                                           "expiration_at_ms": S.t0 + S.day, "transaction_id": NSNull(),
                                                                           "original_transaction_id": NSNull(), "price": 0, "price_in_purchased_currency": 0])
        let purchase = S.revenuecat("rc-p", "INITIAL_PURCHASE", ["event_timestamp_ms": S.t0 + 600_000])
        for lines in [[grant, purchase], [purchase, grant]] {
            let story = try S(.revenuecat, lines)
            #expect(story.rejected.isEmpty && story.summary.appended == 2, "\(story.rejected)")
            for days in [0.5, 2, 29] { #expect(try story.snapshot(days: days).plan(of: S.user).planState == .pro, "day \(days)") }
            #expect(try story.snapshot(days: 31).counts()["subscription_started"] == 1)
        }
        // The grant alone: access for its day, then free; no subscription started, no revenue.
        let alone = try S(.revenuecat, [grant])
        #expect(try alone.snapshot(days: 0.5).plan(of: S.user).planState == .pro)
        #expect(try alone.snapshot(days: 2).plan(of: S.user).planState == .free)
        #expect(try alone.snapshot(days: 2).counts()["subscription_started"] == 0)
        // The store confirms later than the grant: the purchase takes over.
        let confirmed = S.revenuecat("rc-p", "INITIAL_PURCHASE", ["purchased_at_ms": S.t0 + 3_600_000, "event_timestamp_ms": S.t0 + 3_600_000,
                                                                 "expiration_at_ms": S.t0 + 30 * S.day])
        let late = try S(.revenuecat, [grant, confirmed])
        #expect(try late.snapshot(days: 29).plan(of: S.user).planState == .pro)
        #expect(try late.snapshot(days: 29).counts()["subscription_started"] == 1)
    }

    @Test func sandboxPurchasesAreCountedWithIncludeSandboxAsTheirRenewalsAre() throws {
        // A sandbox free trial converted by a paid renewal, and a sandbox purchase without a trial.
        let other = "6f1c2d3e-5a4b-4c3d-9e2f-0000000000cc"
        let story = try S(.appstore, [
            S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY", tx: ["offerType": 1, "offerDiscountType": "FREE_TRIAL", "price": 0,
                                                              "expiresDate": S.t0 + 7 * S.day], environment: "Sandbox"),
            S.apple("as-2", "DID_RENEW", signed: S.t0 + 7 * S.day, tx: ["transactionId": "as-t2", "purchaseDate": S.t0 + 7 * S.day,
                                                                      "expiresDate": S.t0 + 37 * S.day], environment: "Sandbox"),
            S.apple("as-3", "SUBSCRIBED", "INITIAL_BUY", tx: ["appAccountToken": other, "transactionId": "as-o1", "originalTransactionId": "as-o1"],
                    environment: "Sandbox"),
        ])
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        let canonical = try TestLog([
            line("c1", "purchase", "u", "2026-04-01T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"c-t1","expires":"2026-04-08T00:00:00Z","offer":"free_trial","environment":"sandbox"}"#),
            line("c2", "renewal", "u", "2026-04-08T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"c-t2","expires":"2026-05-08T00:00:00Z","price":"9.99","currency":"USD","environment":"sandbox"}"#),
            line("c3", "purchase", "v", "2026-04-01T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"c-v1","expires":"2026-05-01T00:00:00Z","price":"9.99","currency":"USD","environment":"sandbox"}"#),
        ])
        var options = ReplayOptions(profile: .handz, asOf: S.at(days: 20))
        options.includeSandbox = true
        for counts in [try story.snapshot(days: 20, includeSandbox: true).counts(), try Replay.run(directory: canonical.path, options: options).counts()] {
            #expect(counts["trial_started"] == 1 && counts["subscription_started"] == 1 && counts["renewal"] == 1 && counts["trial_converted"] == 1,
                    "\(counts)")
        }
        let production = try story.snapshot(days: 20).counts()
        #expect(production["trial_started"] == 0 && production["subscription_started"] == 0 && production["renewal"] == 0)
    }

    @Test func aLineTheLogCannotKeyIsRejectedAloneAndTheRestGoesIn() throws {
        let long = String(repeating: "x", count: 70_000)
        let apple = try S(.appstore, [
            S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY"),
            S.apple("as-2", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", tx: ["appAccountToken": "", "originalTransactionId": "as-other"]),
            S.apple(long, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
            S.apple("as-4", "DID_RENEW", signed: S.t0 + 30 * S.day, tx: ["transactionId": "as-t2", "purchaseDate": S.t0 + 30 * S.day,
                                                                       "expiresDate": S.t0 + 60 * S.day]),
        ])
        #expect(apple.summary.appended == 2 && apple.summary.rejected == 2)
        #expect(apple.rejected.map(\.line) == [2, 3])
        #expect(apple.rejected.first?.reason == "notificationType DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED has no appAccountToken in its transaction or renewal info, and the ledger knows no user for originalTransactionId as-other: the user cannot be told")
        #expect(apple.rejected.last?.reason.hasPrefix("field 'id' is 70000 bytes") == true, "\(apple.rejected)")
        let rc = try S(.revenuecat, [
            S.revenuecat("rc-1", "INITIAL_PURCHASE"),
            S.revenuecat("rc-2", "UNCANCELLATION", ["app_user_id": long, "original_app_user_id": long, "aliases": [long]]),
            S.revenuecat("rc-3", "CANCELLATION", ["cancel_reason": "UNSUBSCRIBE"]),
        ])
        #expect(rc.summary.appended == 2 && rc.rejected.map(\.line) == [2])
        #expect(rc.rejected.first?.reason.hasPrefix("field 'user' is 70000 bytes") == true, "\(rc.rejected)")
    }

    @Test func graceExpiredIsTheEndOfTheOneBillingIssueNotASecondOne() throws {
        let renewalInfo: [String: Any] = ["appAccountToken": S.user, "autoRenewProductId": "handz.pro.monthly", "autoRenewStatus": 1,
                                          "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": S.t0 + 46 * S.day]
        let story = try S(.appstore, [
            S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY"),
            S.apple("as-2", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: S.t0 + 30 * S.day, renewal: renewalInfo),
            S.apple("as-3", "GRACE_PERIOD_EXPIRED", signed: S.t0 + 46 * S.day, renewal: renewalInfo),
        ])
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        #expect(try story.snapshot(days: 40).plan(of: S.user).planState == .proGrace)
        let after = try story.snapshot(days: 47)
        #expect(after.plan(of: S.user).planState == .free)
        #expect(after.counts()["billing_issue"] == 1)
        #expect(after.notifications().filter { $0.kind == .paymentFailed }.count == 1)
    }

    @Test func aRevenueCatCancellationForABillingErrorIsTheBillingIssueNotACustomerCancellation() throws {
        // RevenueCat fires BILLING_ISSUE and, as soon as the failure is detected, CANCELLATION with
        // cancel_reason BILLING_ERROR: one failed payment; the user did not turn auto-renew off.
        let story = try S(.revenuecat, [
            S.revenuecat("rc-1", "INITIAL_PURCHASE"),
            S.revenuecat("rc-2", "BILLING_ISSUE", ["event_timestamp_ms": S.t0 + 30 * S.day, "grace_period_expiration_at_ms": S.t0 + 36 * S.day]),
            S.revenuecat("rc-3", "CANCELLATION", ["event_timestamp_ms": S.t0 + 30 * S.day + 1000, "cancel_reason": "BILLING_ERROR"]),
        ])
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        let during = try story.snapshot(days: 31)
        #expect(during.plan(of: S.user).planState == .proGrace && during.plan(of: S.user).autoRenew == true)
        #expect(during.counts()["cancellation"] == 0 && during.counts()["billing_issue"] == 1)
    }

    @Test func aFloatPriceInAnApplePayloadIsRefusedNotTruncated() throws {
        let story = try S(.appstore, [
            S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY", tx: ["price": 9.99]),
            S.apple("as-2", "DID_RENEW", signed: S.t0 + 30 * S.day, tx: ["transactionId": "as-t2", "purchaseDate": S.t0 + 30 * S.day,
                                                                        "expiresDate": S.t0 + 60 * S.day, "price": 9990]),
        ])
        #expect(story.summary.appended == 1 && story.rejected.map(\.line) == [1], "\(story.rejected)")
        #expect(story.rejected.first?.reason == "data.signedTransactionInfo.price: 9.99 is not a whole number of milliunits (Apple writes 9.99 as 9990)",
                "\(story.rejected)")
    }

    @Test func anAppleUpgradeIsChargedAtOnceAndARefundOfItEndsAccess() throws {
        // The upgrade's transaction info is a new transaction of the new product, charged at once.
        let upgrade = ["productId": "handz.pro.max", "transactionId": "as-t2", "purchaseDate": S.t0 + 10 * S.day,
                       "expiresDate": S.t0 + 40 * S.day, "price": 14990] as [String: Any]
        let story = try S(.appstore, [
            S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY"),
            S.apple("as-2", "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: S.t0 + 10 * S.day, tx: upgrade,
                    renewal: ["appAccountToken": S.user, "autoRenewProductId": "handz.pro.max", "productId": "handz.pro.max"]),
        ], profile: StoreStories.profile)
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        let upgraded = try story.snapshot(days: 35)
        #expect(upgraded.plan(of: S.user).planState == .pro && upgraded.plan(of: S.user).product == "handz.pro.max")
        var line = upgraded.revenue().lines.first { $0.currency == "USD" }
        #expect(line?.gross == Money.parse("24.98"), "the upgrade's charge is revenue")
        let refunded = try S(.appstore, [
            S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY"),
            S.apple("as-2", "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: S.t0 + 10 * S.day, tx: upgrade),
            S.apple("as-3", "REFUND", signed: S.t0 + 12 * S.day, tx: upgrade.merging(["revocationDate": S.t0 + 12 * S.day, "revocationReason": 1]) { $1 }),
        ], profile: StoreStories.profile)
        #expect(refunded.rejected.isEmpty, "\(refunded.rejected)")
        let after = try refunded.snapshot(days: 13)
        #expect(after.plan(of: S.user).planState == .free, "a refund of the current (upgrade) transaction ends access")
        line = after.revenue().lines.first { $0.currency == "USD" }
        let kept = Money.parse("9.99")!
        #expect(line?.gross == Money.parse("24.98") && line?.refunded == Money.parse("14.99") && line?.net == kept - kept.percent(Profile.handz.commissionPercent))
    }

    /// A compact JWS of `payload` as Apple signs it (ES256, x5c chain in the header); the signature is not real.
    static func jws(_ payload: [String: Any]) -> String {
        func base64url(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return base64url(#"{"alg":"ES256","x5c":["MIIBleaf","MIIBintermediate","MIIBroot"]}"#) + "." + base64url(S.json(payload)) + ".c2lnbmF0dXJl"
    }

    /// What an App Store server receives: {"signedPayload": JWS}, whose data holds JWS strings too.
    static func signed(_ notification: [String: Any]) -> [String: Any] {
        var n = notification
        var data = n["data"] as! [String: Any]
        for key in ["signedTransactionInfo", "signedRenewalInfo"] {
            if let o = data[key] as? [String: Any] { data[key] = jws(o) }
        }
        n["data"] = data
        return ["signedPayload": jws(n)]
    }

    @Test func theRawSignedPayloadAServerReceivesIsDecodedAndCounted() throws {
        let story = try S(.appstore, [
            Self.signed(S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY")),
            Self.signed(S.apple("as-2", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", signed: S.t0 + S.day,
                                renewal: ["appAccountToken": S.user, "autoRenewStatus": 0, "autoRenewProductId": "handz.pro.monthly"])),
            S.apple("as-3", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", signed: S.t0 + 2 * S.day),
            Self.signed(S.apple("as-4", "DID_RENEW", signed: S.t0 + 30 * S.day, tx: ["transactionId": "as-t2", "purchaseDate": S.t0 + 30 * S.day,
                                                                                   "expiresDate": (S.t0 + 60 * S.day) / 1000])),
        ])
        #expect(story.summary.appended == 3 && story.rejected.map(\.line) == [4], "\(story.rejected)")
        #expect(story.summary.unverifiedJWS == 2, "lines 1 and 2 were JWS, taken without verifying their signatures")
        #expect(story.rejected.first?.reason.contains("is seconds, not milliseconds") == true, "\(story.rejected)")
        #expect(try story.snapshot(days: 3).plan(of: S.user).planState == .pro)
    }

    @Test func anAnonymousRevenueCatTrialThenALoginAndARenewalIsOneUserWithTheConversionCounted() throws {
        let anonymous = "$RCAnonymousID:8069238d6049ce87cc529853916d624c", known = "u_42"
        let lines = [
            S.revenuecat("rc-1", "INITIAL_PURCHASE", ["app_user_id": anonymous, "original_app_user_id": anonymous, "aliases": [anonymous],
                                                      "period_type": "TRIAL", "price": 0, "price_in_purchased_currency": 0,
                                                      "expiration_at_ms": S.t0 + 7 * S.day]),
            S.revenuecat("rc-2", "RENEWAL", ["app_user_id": known, "original_app_user_id": anonymous, "aliases": [anonymous, known],
                                             "transaction_id": "rc-t2", "purchased_at_ms": S.t0 + 7 * S.day,
                                             "event_timestamp_ms": S.t0 + 7 * S.day, "expiration_at_ms": S.t0 + 37 * S.day]),
            S.revenuecat("rc-3", "CANCELLATION", ["app_user_id": known, "original_app_user_id": anonymous, "aliases": [anonymous, known],
                                                  "cancel_reason": "UNSUBSCRIBE", "event_timestamp_ms": S.t0 + 8 * S.day]),
        ]
        for batchSize in [1, 1000] {
            let story = try S(.revenuecat, lines, batchSize: batchSize)
            #expect(story.rejected.isEmpty, "\(story.rejected)")
            let after = try story.snapshot(days: 10)
            // One user, kept under the first id the ledger knew.
            #expect(after.plan(of: anonymous).planState == .pro && after.plan(of: anonymous).autoRenew == false, "batch \(batchSize)")
            #expect(after.userIDs == [anonymous])
            let counts = after.counts()
            #expect(counts["trial_started"] == 1 && counts["trial_converted"] == 1 && counts["renewal"] == 1, "\(counts)")
        }
    }

    @Test func anAppleNotificationWithoutAppAccountTokenGoesToTheUserOfItsOriginalTransaction() throws {
        // An offer code redeemed outside the app, or an older purchase: no appAccountToken in the
        // renewal, but its originalTransactionId is that of a purchase whose user the ledger knows.
        let renew = { (uuid: String, days: Int64, original: String) in
            S.apple(uuid, "DID_RENEW", signed: S.t0 + days * S.day, tx: ["appAccountToken": NSNull(), "transactionId": uuid + "-t",
                                                                        "originalTransactionId": original, "purchaseDate": S.t0 + days * S.day,
                                                                        "expiresDate": S.t0 + (days + 30) * S.day])
        }
        let story = try S(.appstore, [S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY"), renew("as-2", 30, "as-t1"), renew("as-3", 30, "unknown-t")])
        #expect(story.summary.appended == 2 && story.rejected.map(\.line) == [3], "\(story.rejected)")
        #expect(story.rejected.first?.reason == "notificationType DID_RENEW has no appAccountToken in its transaction or renewal info, and the ledger knows no user for originalTransactionId unknown-t: the user cannot be told")
        // A later import into the same log finds the user too.
        let later = try S(.appstore, [renew("as-4", 60, "as-t1")], into: story.log)
        #expect(later.rejected.isEmpty && later.summary.appended == 1, "\(later.rejected)")
        let after = try later.snapshot(days: 70)
        #expect(after.plan(of: S.user).planState == .pro && after.userIDs == [S.user] && after.counts()["renewal"] == 2)
    }

    @Test func aRevenueCatTakeHomeShareIsPreferredToTheProfilesCommissionInNetRevenue() throws {
        let story = try S(.revenuecat, [
            S.revenuecat("rc-1", "INITIAL_PURCHASE", ["takehome_percentage": 0.7]),
            S.revenuecat("rc-2", "RENEWAL", ["transaction_id": "rc-t2", "purchased_at_ms": S.t0 + 30 * S.day, "event_timestamp_ms": S.t0 + 30 * S.day,
                                             "expiration_at_ms": S.t0 + 60 * S.day, "takehome_percentage": 0.85]),
            S.revenuecat("rc-3", "CANCELLATION", ["cancel_reason": "CUSTOMER_SUPPORT", "transaction_id": "rc-t2", "event_timestamp_ms": S.t0 + 31 * S.day,
                                                  "price": -9.99, "price_in_purchased_currency": -9.99]),
        ])
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        let line = try story.snapshot(days: 32).revenue().lines.first
        #expect(line?.gross == Money.parse("19.98") && line?.refunded == Money.parse("9.99"))
        #expect(line?.net == Money.parse("6.993"), "9.99 kept at 70 %, the refunded renewal nets nothing: \(String(describing: line))")
    }

    @Test func theExpiryOfATransactionUpgradedAwayDoesNotEndTheUpgradedSubscription() throws {
        let upgrade = ["productId": "handz.pro.max", "transactionId": "as-t2", "purchaseDate": S.t0 + 10 * S.day,
                       "expiresDate": S.t0 + 40 * S.day, "price": 14990] as [String: Any]
        let story = try S(.appstore, [
            S.apple("as-1", "SUBSCRIBED", "INITIAL_BUY"),
            S.apple("as-2", "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: S.t0 + 10 * S.day, tx: upgrade),
            // The old transaction, marked isUpgraded, reported expired at its own end.
            S.apple("as-3", "EXPIRED", "VOLUNTARY", signed: S.t0 + 30 * S.day, tx: ["isUpgraded": true]),
        ], profile: StoreStories.profile)
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        #expect(story.summary.skipped == ["EXPIRED (upgraded transaction)": 1])
        #expect(try story.snapshot(days: 35).plan(of: S.user).planState == .pro)
    }
}
