import Testing
@testable import SubscriptionDomain

/// TEMPORARY-GRANT in the Decider: the grant's access is kept as a subscription marked
/// `temporaryGrant` (access only, as a family member's), which the confirmed purchase replaces,
/// a renewal or a charged upgrade turns into the store's subscription, and which never replaces
/// a running subscription.
@Suite struct TemporaryGrantRules {
    func grant(_ time: String, expires: String, txn: String = "t1") -> Event {
        event(.purchase, time, id: "g-\(txn)") {
            $0.product = "handz.pro.monthly"; $0.transaction = txn; $0.expires = at(expires); $0.price = .zero
            $0.extra = [StoreField.temporaryGrant.field(rawJSON: "true")]
        }
    }

    /// The state of `events` folded in the given order.
    func folded(_ events: [Event]) -> SubscriberState {
        let decider = PlanDecider(profile: .handz)
        var s = SubscriberState(user: "u1")
        for e in events { decider.evolve(&s, e) }
        return s
    }

    @Test func TEMPORARY_GRANT_aGrantAloneIsAccessOnlyAndMarksNoTrialUsed() {
        let s = folded([grant("2026-03-01T10:00:00Z", expires: "2026-03-02T10:00:00Z")])
        #expect(s.rule == .temporaryGrant)
        #expect(s.subscription?.temporaryGrant == true && s.subscription?.accessOnly == true && s.subscription?.familyShared == false)
        #expect(s.trialUsedGroups.isEmpty && s.seenTransactions.isEmpty)
        let v = plan([grant("2026-03-01T10:00:00Z", expires: "2026-03-02T10:00:00Z")], asOf: "2026-03-01T12:00:00Z")
        #expect(v.planState == .pro && v.entitlements == ["pro"] && v.trialEligible)
    }

    @Test func TEMPORARY_GRANT_aGrantAloneGivesAccessUntilItsExpiresWithNoUnverifiedGrace() {
        let g = [grant("2026-03-01T10:00:00Z", expires: "2026-03-02T10:00:00Z")]
        #expect(plan(g, asOf: "2026-03-02T09:59:59Z").planState == .pro)
        let after = plan(g, asOf: "2026-03-02T10:00:00Z")
        #expect(after.planState == .free && after.entitlements.isEmpty && after.rule == .temporaryGrantEnded)
        #expect(plan(g, asOf: "2026-03-03T12:00:00Z").rule == .temporaryGrantEnded)
        // A subscription bought the same way, unconfirmed at its expires, waits out the unverified grace.
        let bought = [purchase("2026-03-01T10:00:00Z", expires: "2026-03-02T10:00:00Z")]
        #expect(plan(bought, asOf: "2026-03-02T10:00:00Z").rule == .unverifiedGrace)
    }

    @Test func TEMPORARY_GRANT_theConfirmedPurchaseReplacesTheGrantWithASubscriptionByItsOffer() {
        let g = grant("2026-03-01T10:00:00Z", expires: "2026-03-02T10:00:00Z")
        let paid = folded([g, purchase("2026-03-01T10:30:00Z", expires: "2026-04-01T10:30:00Z")])
        #expect(paid.rule == .purchaseStartsPro && paid.subscription?.accessOnly == false && paid.subscription?.price == Money.parse("9.99"))
        let trial = folded([g, purchase("2026-03-01T10:30:00Z", expires: "2026-03-08T10:30:00Z", trial: true)])
        #expect(trial.rule == .purchaseStartsTrial && trial.subscription?.isTrial == true && trial.subscription?.accessOnly == false)
        #expect(trial.trialUsedGroups.count == 1)
    }

    @Test func TEMPORARY_GRANT_aGrantWhileASubscriptionRunsChangesNothingButTheRule() {
        let bought = purchase("2026-03-01T09:00:00Z", expires: "2026-04-01T09:00:00Z")
        var without = folded([bought]), with = folded([bought, grant("2026-03-01T10:00:00Z", expires: "2026-03-02T10:00:00Z", txn: "t2")])
        #expect(with.rule == .temporaryGrant && with.subscription?.accessOnly == false)
        (without.rule, without.lastEventTime, with.rule, with.lastEventTime) = (.initial, nil, .initial, nil)
        #expect(with == without)
    }

    @Test func TEMPORARY_GRANT_aRenewalOrAChargedUpgradeOfTheGrantMakesItTheStoresSubscription() {
        let g = grant("2026-03-01T10:00:00Z", expires: "2026-03-02T10:00:00Z")
        let renewed = folded([g, renewal("2026-03-02T10:00:00Z", expires: "2026-04-02T10:00:00Z", txn: "t2")])
        #expect(renewed.subscription?.temporaryGrant == false && renewed.subscription?.price == Money.parse("9.99"))
        let upgraded = folded([g, event(.productChange, "2026-03-01T11:00:00Z") {
            $0.product = "handz.pro.monthly"; $0.effective = .immediate; $0.transaction = "t3"; $0.price = Money.parse("9.99"); $0.currency = "USD"
        }])
        #expect(upgraded.rule == .upgradeNow && upgraded.subscription?.temporaryGrant == false)
        let uncharged = folded([g, event(.productChange, "2026-03-01T11:00:00Z") { $0.product = "handz.pro.monthly"; $0.effective = .immediate }])
        #expect(uncharged.subscription?.temporaryGrant == true, "a change without a transaction of its own is no charge")
    }
}
