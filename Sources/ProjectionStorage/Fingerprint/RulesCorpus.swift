import Projections
import SubscriptionDomain
import Population

/// A fixed, built-in set of events that reaches every event type and the rules' branches (trial,
/// conversion, billing grace and recovery, unverified grace, refunds of the current and of an
/// older transaction and their reversal, product changes now (charged or not) and at renewal, revoke, pause and its
/// resumption, temporary entitlement grants, sandbox, transfer, credits, notification switches), plus a generated population.
/// `RulesFingerprint` folds it through the Decider and every read model: what they answer for it
/// is the rules' identity.
enum RulesCorpus {
    static let start = Timestamp(seconds: 1_767_225_600)   // 2026-01-01T00:00:00Z

    /// The instants the corpus is asked about: during trials and graces, and after everything.
    static let instants: [Timestamp] = [2, 9, 16.5, 20, 40, 75, 400].map(day)

    /// The instant `days` days after `start`.
    static func day(_ days: Double) -> Timestamp { start + Timestamp.Duration(nanoseconds: Int64(days * 86_400) * 1_000_000_000) }

    /// The events, for `profile`'s products.
    static func events(_ profile: Profile) -> [Event] {
        PopulationGenerator(profile: profile, users: 40, seed: 20_261_122).events() + stories(profile)
    }

    /// One short story per rule branch, each its own user.
    static func stories(_ profile: Profile) -> [Event] {
        let subscription = profile.products.first { $0.kind == .autoRenewable }?.id ?? "corpus.monthly"
        let other = profile.products.last { $0.kind == .autoRenewable }?.id ?? subscription
        let pack = profile.products.first { $0.kind == .consumable }
        var out: [Event] = []
        func add(_ user: String, _ day: Double, _ type: EventType, _ set: (inout EventFields) -> Void = { _ in }) {
            var d = EventFields()
            set(&d)
            out.append(Event(id: "corpus-\(out.count)", type: type, user: user, time: Self.day(day), source: type.isStoreEvent ? .store : .client, fields: d))
        }
        func buy(_ user: String, _ day: Double, _ txn: String, days: Double, offer: Offer = .none, product: String? = nil,
                 set: (inout EventFields) -> Void = { _ in }) {
            add(user, day, .purchase) {
                $0.product = product ?? subscription; $0.transaction = txn; $0.offer = offer
                $0.expires = Self.day(day + days)
                $0.price = Money.parse("9.99"); $0.currency = "USD"
                set(&$0)
            }
        }
        func renew(_ user: String, _ day: Double, _ txn: String, days: Double, product: String? = nil) {
            add(user, day, .renewal) {
                $0.product = product ?? subscription; $0.transaction = txn
                $0.expires = Self.day(day + days)
                $0.price = Money.parse("9.99"); $0.currency = "USD"
            }
        }
        // Trial, cancelled during it, then a conversion elsewhere; a reminder switch turned off and on
        // again before the reminder fires (its channels are the setting's when it fires).
        add("trial", 0, .accountCreated)
        add("trial", 0.1, .notificationsDisabled) { $0.category = "billing" }
        buy("trial", 1, "trial-1", days: 7, offer: .freeTrial)
        add("trial", 3, .cancellation) { $0.reason = "customer" }
        add("trial", 4, .notificationsEnabled) { $0.category = "billing" }
        buy("convert", 1, "convert-1", days: 7, offer: .freeTrial)
        renew("convert", 8, "convert-2", days: 30)
        renew("convert", 8.001, "convert-2", days: 30)   // the same transaction reported twice
        // Billing issue recovered, billing issue lapsed, with and without graceExpires.
        buy("billing", 0, "billing-1", days: 10)
        add("billing", 10, .billingIssue)
        renew("billing", 11, "billing-2", days: 30)
        buy("lapse", 0, "lapse-1", days: 10)
        add("lapse", 10, .billingIssue) { $0.graceExpires = start + .hours(10 * 24 + 36) }
        // Unverified grace (no renewal, no expiration), and an expiration.
        buy("unverified", 0, "unverified-1", days: 15)
        buy("expired", 0, "expired-1", days: 15)
        add("expired", 5, .cancellation)
        add("expired", 6, .uncancellation)
        add("expired", 15, .expiration) { $0.reason = "billing_error" }
        // Catalog fields off their type and an unknown field: kept, stored and written back, and
        // ignored by the rules (the cancellation's price is no refund, its offer no trial).
        buy("off-type", 0, "off-type-1", days: 15)
        add("off-type", 2, .cancellation) {
            $0.price = Money.parse("9.99"); $0.offer = .freeTrial; $0.quantity = 3; $0.to = "someone"
            $0.extra = [.init(name: "vendorNote", rawJSON: #"{"a":[1,"x"]}"#)]
        }
        // Refunds: of the current transaction, of an older one, and reversed.
        buy("refund", 0, "refund-1", days: 30)
        renew("refund", 30, "refund-2", days: 30)
        add("refund", 35, .refund) { $0.transaction = "refund-1"; $0.price = Money.parse("9.99"); $0.currency = "USD" }
        add("refund", 36, .refund) { $0.transaction = "refund-2"; $0.price = Money.parse("9.99"); $0.currency = "USD" }
        add("refund", 37, .refundReversed) { $0.transaction = "refund-2" }
        // Product changes, at once and at the next renewal; revoke (family sharing withdrawn); sandbox.
        buy("change", 0, "change-1", days: 30)
        add("change", 5, .productChange) { $0.product = other; $0.effective = .immediate }
        add("change", 10, .productChange) { $0.product = subscription; $0.effective = .nextRenewal }
        renew("change", 30, "change-2", days: 30)
        buy("upgrade", 0, "upgrade-1", days: 30)
        add("upgrade", 5, .productChange) {
            $0.product = other; $0.effective = .immediate; $0.expires = Self.day(35)
            $0.transaction = "upgrade-2"; $0.price = Money.parse("14.99"); $0.currency = "USD"
        }
        add("upgrade", 6, .refund) { $0.transaction = "upgrade-2" }
        buy("family", 0, "family-1", days: 30)
        add("family", 12, .revoke) { $0.reason = "family_sharing_ended" }
        // A family member's access (FAMILY-SHARED): entitlement, no sale; renewed, then revoked.
        buy("family-member", 0, "member-1", days: 30) { $0.familyShared = true }
        add("family-member", 30, .renewal) {
            $0.product = subscription; $0.transaction = "member-2"; $0.expires = Self.day(60); $0.familyShared = true
        }
        add("family-member", 40, .revoke) { $0.reason = "family_sharing_revoked" }
        buy("sandbox", 0, "sandbox-1", days: 30) { $0.environment = .sandbox }
        // Paused: access to expires, then Free with no unverified grace, until a renewal resumes it;
        // and a pause cancelled, then uncancelled (paused again).
        buy("paused", 0, "paused-1", days: 30)
        add("paused", 10, .pause) { $0.resumesAt = Self.day(60) }
        renew("paused", 60, "paused-2", days: 30)
        buy("pause-cancel", 0, "pause-cancel-1", days: 15)
        add("pause-cancel", 3, .pause)
        add("pause-cancel", 4, .cancellation)
        add("pause-cancel", 5, .uncancellation)
        // A temporary entitlement grant bridging a purchase confirmed earlier, and one alone.
        buy("grant", 0, "grant-1", days: 30)
        add("grant", 0.01, .purchase) {
            $0.product = subscription; $0.transaction = "grant-temporary"; $0.expires = Self.day(1.01); $0.price = .zero
            $0.extra = [StoreField.temporaryGrant.field(rawJSON: "true")]
        }
        add("grant-alone", 0, .purchase) {
            $0.product = subscription; $0.transaction = "grant-alone"; $0.expires = Self.day(1); $0.price = .zero
            $0.extra = [StoreField.temporaryGrant.field(rawJSON: "true")]
        }
        // A transfer to a new account; credits bought and spent past zero; account and app events.
        buy("old-account", 0, "move-1", days: 30)
        add("new-account", 3, .accountCreated)
        add("old-account", 4, .transfer) { $0.to = "new-account" }
        add("credits", 0, .consumablePurchase) {
            $0.product = pack?.id ?? "corpus.credits"; $0.transaction = "credits-1"; $0.quantity = pack?.credits ?? 10
            $0.price = Money.parse(pack?.price ?? "0.99"); $0.currency = pack?.currency ?? "USD"
        }
        add("credits", 1, .creditsUsed) { $0.quantity = 1_000 }
        add("app", 0, .paywallViewed) { $0.context = "onboarding"; $0.sourceScreen = "home"; $0.planState = "free"; $0.trialEligible = true }
        add("app", 0.01, .paywallCtaTapped) { $0.context = "onboarding"; $0.trialEligible = true }
        add("app", 0.02, .purchaseStarted) { $0.product = subscription }
        add("app", 0.03, .purchasePending) { $0.product = subscription }
        add("app", 0.04, .purchaseFailed) { $0.reason = "declined" }
        add("app", 0.05, .purchaseSuccess) { $0.product = subscription; $0.trialUsed = false }
        add("app", 0.06, .restoreClicked)
        add("app", 0.07, .restoreFailed) { $0.errorCode = "no_purchases" }
        add("app", 0.08, .restoreSuccess) { $0.plan = "pro" }
        add("app", 50, .accountDeleted)
        return out
    }
}
