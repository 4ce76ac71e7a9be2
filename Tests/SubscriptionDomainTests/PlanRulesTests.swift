import Testing
@testable import SubscriptionDomain

/// One test per rule row of seed 004 and CONTRACT.md §3.
@Suite struct PlanRules {
    @Test func CH08_L349_guestUntilAccountOrPurchase() {
        #expect(plan([], asOf: "2026-01-01T00:00:00Z").planState == .guest)
        #expect(plan([event(.paywallViewed, "2026-01-01T00:00:00Z") { $0.context = "onboarding" }], asOf: "2026-01-02T00:00:00Z").planState == .guest)
        let created = plan([event(.accountCreated, "2026-01-01T00:00:00Z")], asOf: "2026-01-02T00:00:00Z")
        #expect(created.planState == .free && created.rule == .accountCreated)
    }

    @Test func CH25_L589_trialStartsAtPurchaseAndBehavesLikePro() {
        let v = plan([purchase("2026-01-06T10:00:00Z", expires: "2026-01-13T10:00:00Z", trial: true)], asOf: "2026-01-07T00:00:00Z")
        #expect(v.planState == .trial)
        #expect(v.entitlements == ["pro"] && v.tier == "pro")
        #expect(v.limits["practice"] == .enabled(true))
        #expect(v.trialEligible == false)
        #expect(v.rule == .purchaseStartsTrial)
    }

    @Test func CH08_L324_trialEndsFreeUnlessConverted() {
        let trial = purchase("2026-01-06T10:00:00Z", expires: "2026-01-13T10:00:00Z", trial: true)
        // not converted, store reports expiration
        let expired = plan([trial, event(.expiration, "2026-01-13T10:00:00Z")], asOf: "2026-01-13T10:00:01Z")
        #expect(expired.planState == .free && expired.entitlements.isEmpty)
        // converted
        let converted = plan([trial, renewal("2026-01-13T10:00:00Z", expires: "2026-02-13T10:00:00Z", txn: "t2")], asOf: "2026-01-14T00:00:00Z")
        #expect(converted.planState == .pro && converted.rule == .trialConverted)
    }

    @Test func CH25_L590_cancelDuringTrialKeepsTrialUntilItEndsThenFree() {
        let events = [purchase("2026-01-06T10:00:00Z", expires: "2026-01-13T10:00:00Z", trial: true), event(.cancellation, "2026-01-08T09:00:00Z")]
        let during = plan(events, asOf: "2026-01-12T00:00:00Z")
        #expect(during.planState == .trial && during.autoRenew == false && during.rule == .cancelDuringTrial)
        let after = plan(events, asOf: "2026-01-13T10:00:00Z")
        #expect(after.planState == .free && after.rule == .trialEnded)
    }

    @Test func CH25_L582_trialOncePerUserPerGroup() {
        let first = purchase("2026-01-06T10:00:00Z", expires: "2026-01-13T10:00:00Z", trial: true)
        #expect(plan([], asOf: "2026-01-01T00:00:00Z").trialEligible)
        #expect(plan([first], asOf: "2026-01-07T00:00:00Z").trialEligible == false)
        let paid = purchase("2026-01-06T10:00:00Z", expires: "2026-02-06T10:00:00Z")
        #expect(plan([paid], asOf: "2026-03-07T00:00:00Z").trialEligible == false)
        let again = plan([first, event(.expiration, "2026-01-13T10:00:00Z"),
                          purchase("2026-03-01T00:00:00Z", expires: "2026-03-08T00:00:00Z", txn: "t9", trial: true)], asOf: "2026-03-02T00:00:00Z")
        #expect(again.rule == .trialOncePerGroup)
    }

    @Test func CH25_L591_aProfileWithNoTrialMakesNobodyTrialEligible() {
        // SportsTime (seed 003) names no trial: its profile has trialDays 0 (docs/rules.md, decisions).
        #expect(Profile.sportstime.trialDays == 0)
        #expect(plan([], asOf: "2026-01-01T00:00:00Z", profile: .sportstime).trialEligible == false)
        #expect(plan([event(.accountCreated, "2026-01-01T00:00:00Z")], asOf: "2026-01-02T00:00:00Z", profile: .sportstime).trialEligible == false)
        // The same catalog with and without its 7 days: only the trial length decides.
        var noTrial = Profile.handz
        noTrial.trialDays = 0
        #expect(plan([], asOf: "2026-01-01T00:00:00Z", profile: noTrial).trialEligible == false)
        #expect(plan([], asOf: "2026-01-01T00:00:00Z", profile: .handz).trialEligible)
    }

    @Test func CH25_L589_aFreeTrialPurchaseUnderAProfileWithNoTrialStartsTheTrialTheStoreReports() {
        // The profile offers none, but the store reports a free trial: the trial runs to its `expires`.
        let trial = purchase("2026-01-06T10:00:00Z", expires: "2026-01-13T10:00:00Z", trial: true, product: "com.sportstime.pro.monthly")
        let during = plan([trial], asOf: "2026-01-07T00:00:00Z", profile: .sportstime)
        #expect(during.planState == .trial && during.rule == .purchaseStartsTrial)
        #expect(during.entitlements == ["pro"] && during.expiresAt == at("2026-01-13T10:00:00Z"))
        #expect(during.trialEligible == false)
        let ended = plan([trial, event(.expiration, "2026-01-13T10:00:00Z")], asOf: "2026-01-13T10:00:00Z", profile: .sportstime)
        #expect(ended.planState == .free && ended.entitlements.isEmpty && ended.trialEligible == false)
    }

    @Test func SK_D01_billingGraceThreeDaysThenFree() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"), event(.billingIssue, "2026-02-01T00:00:00Z")]
        let grace = plan(events, asOf: "2026-02-03T23:59:59Z")
        #expect(grace.planState == .proGrace && grace.graceReason == .billing)
        #expect(grace.graceEndsAt == at("2026-02-04T00:00:00Z"))
        #expect(grace.billingIssue && grace.badge == 1 && grace.entitlements == ["pro"])
        let after = plan(events, asOf: "2026-02-04T00:00:00Z")
        #expect(after.planState == .free && after.rule == .billingGraceEnded)
    }

    @Test func SK_D01_graceExpiresFromTheStoreWins() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"),
                      event(.billingIssue, "2026-02-01T00:00:00Z") { $0.graceExpires = at("2026-02-17T00:00:00Z") }]
        #expect(plan(events, asOf: "2026-02-10T00:00:00Z").planState == .proGrace)
        #expect(plan(events, asOf: "2026-02-17T00:00:00Z").planState == .free)
    }

    @Test func SK_D01_billingGraceLengthComesFromTheProfile() {
        var seven = Profile.handz
        seven.billingGraceDays = 7
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"), event(.billingIssue, "2026-02-01T00:00:00Z")]
        #expect(plan(events, asOf: "2026-02-05T00:00:00Z", profile: seven).planState == .proGrace)
        #expect(plan(events, asOf: "2026-02-05T00:00:00Z").planState == .free)
    }

    @Test func SK_D01_renewalDuringGraceRecovers() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"), event(.billingIssue, "2026-02-01T00:00:00Z"),
                      renewal("2026-02-02T00:00:00Z", expires: "2026-03-02T00:00:00Z", txn: "t2")]
        let v = plan(events, asOf: "2026-02-10T00:00:00Z")
        #expect(v.planState == .pro && v.billingIssue == false && v.badge == 0 && v.rule == .billingRecovered)
    }

    @Test func SK_D04_unverifiedGrace24HoursAfterExpiresWithoutRenewalOrExpiration() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")]
        let grace = plan(events, asOf: "2026-02-01T12:00:00Z")
        #expect(grace.planState == .proGrace && grace.graceReason == .unverified)
        #expect(grace.graceEndsAt == at("2026-02-02T00:00:00Z"))
        #expect(plan(events, asOf: "2026-02-02T00:00:00Z").planState == .free)
        #expect(plan(events, asOf: "2026-02-02T00:00:00Z").rule == .unverifiedGraceEnded)
    }

    @Test func cancelledSubscriptionSimplyEndsAtExpires() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"), event(.cancellation, "2026-01-10T00:00:00Z")]
        #expect(plan(events, asOf: "2026-01-31T00:00:00Z").planState == .pro)
        let after = plan(events, asOf: "2026-02-01T00:00:00Z")
        #expect(after.planState == .free && after.graceReason == nil && after.rule == .cancelledEnded)
    }

    @Test func uncancellationTurnsAutoRenewBackOn() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"), event(.cancellation, "2026-01-10T00:00:00Z"),
                      event(.uncancellation, "2026-01-11T00:00:00Z")]
        #expect(plan(events, asOf: "2026-01-20T00:00:00Z").autoRenew == true)
        #expect(plan(events, asOf: "2026-02-01T01:00:00Z").planState == .proGrace)
    }

    @Test func CANCEL_autoRenewIsOffSinceTheCancellationUntilUncancelOrRenewal() {
        let bought = purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
        let cancel = event(.cancellation, "2026-01-10T00:00:00Z")
        #expect(plan([bought], asOf: "2026-01-05T00:00:00Z").autoRenewOffAt == nil)
        let cancelled = plan([bought, cancel], asOf: "2026-01-20T00:00:00Z")
        #expect(cancelled.autoRenew == false && cancelled.autoRenewOffAt == at("2026-01-10T00:00:00Z") && cancelled.rule == .cancelKeepsAccess)
        // A second cancellation while it is off keeps the instant it went off; after expiry it is still the one.
        let again = [bought, cancel, event(.cancellation, "2026-01-12T00:00:00Z")]
        #expect(plan(again, asOf: "2026-01-20T00:00:00Z").autoRenewOffAt == at("2026-01-10T00:00:00Z"))
        #expect(plan(again, asOf: "2026-02-02T00:00:00Z").autoRenewOffAt == at("2026-01-10T00:00:00Z"))
        // UNCANCEL clears it; a later cancellation sets it anew.
        let uncancelled = [bought, cancel, event(.uncancellation, "2026-01-11T00:00:00Z")]
        let on = plan(uncancelled, asOf: "2026-01-20T00:00:00Z")
        #expect(on.autoRenew == true && on.autoRenewOffAt == nil && on.rule == .uncancel)
        #expect(plan(uncancelled + [event(.cancellation, "2026-01-15T00:00:00Z")], asOf: "2026-01-20T00:00:00Z").autoRenewOffAt == at("2026-01-15T00:00:00Z"))
        // A renewal turns auto-renew back on (the store charged again): cleared.
        let renewed = plan([bought, cancel, renewal("2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z", txn: "t2")], asOf: "2026-02-02T00:00:00Z")
        #expect(renewed.autoRenew == true && renewed.autoRenewOffAt == nil)
        // During a trial (CH25 L590) the same.
        let trial = plan([purchase("2026-01-06T10:00:00Z", expires: "2026-01-13T10:00:00Z", trial: true), event(.cancellation, "2026-01-08T09:00:00Z")],
                         asOf: "2026-01-12T00:00:00Z")
        #expect(trial.rule == .cancelDuringTrial && trial.autoRenewOffAt == at("2026-01-08T09:00:00Z"))
    }

    @Test func lateRenewalAfterExpiryRestoresPro() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"),
                      renewal("2026-02-03T00:00:00Z", expires: "2026-03-03T00:00:00Z", txn: "t2")]
        #expect(plan(events, asOf: "2026-02-02T12:00:00Z").planState == .free)
        let v = plan(events, asOf: "2026-02-04T00:00:00Z")
        #expect(v.planState == .pro && v.rule == .lateRenewal)
    }

    @Test func SK_D08_refundOfTheCurrentTransactionEndsAccessAtOnce() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"),
                      event(.refund, "2026-01-05T00:00:00Z") { $0.transaction = "t1" }]
        #expect(plan(events, asOf: "2026-01-04T00:00:00Z").planState == .pro)
        let v = plan(events, asOf: "2026-01-05T00:00:00Z")
        #expect(v.planState == .free && v.rule == .refundCurrent)
    }

    @Test func SK_D08_refundOfAnOlderTransactionChangesOnlyTheBooks() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"),
                      renewal("2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z", txn: "t2"),
                      event(.refund, "2026-02-05T00:00:00Z") { $0.transaction = "t1" }]
        let v = plan(events, asOf: "2026-02-06T00:00:00Z")
        #expect(v.planState == .pro && v.rule == .refundOlder)
    }

    @Test func refundReversedRestoresAccess() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"),
                      event(.refund, "2026-01-05T00:00:00Z") { $0.transaction = "t1" },
                      event(.refundReversed, "2026-01-07T00:00:00Z") { $0.transaction = "t1" }]
        let v = plan(events, asOf: "2026-01-08T00:00:00Z")
        #expect(v.planState == .pro && v.rule == .refundReversed)
    }

    @Test func revokeEndsAccessAtOnce() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", product: "com.sportstime.pro.monthly"),
                      event(.revoke, "2026-01-09T00:00:00Z") { $0.reason = "family_sharing_removed" }]
        let v = plan(events, asOf: "2026-01-09T00:00:00Z", profile: .sportstime)
        #expect(v.planState == .free && v.rule == .revoke)
    }

    @Test func SK_D07_upgradeAppliesAtOnceDowngradeAtNextRenewal() {
        let base = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", product: "howru_premium_monthly")]
        let up = plan(base + [event(.productChange, "2026-01-10T00:00:00Z") { $0.product = "howru_family_monthly" }], asOf: "2026-01-11T00:00:00Z", profile: .howru)
        #expect(up.entitlements == ["family"] && up.limits["checkers"] == .count(5) && up.rule == .upgradeNow)
        let downEvents = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", product: "howru_family_monthly"),
                          event(.productChange, "2026-01-10T00:00:00Z") { $0.product = "howru_premium_monthly"; $0.effective = .nextRenewal }]
        let before = plan(downEvents, asOf: "2026-01-11T00:00:00Z", profile: .howru)
        #expect(before.entitlements == ["family"] && before.rule == .downgradeAtRenewal)
        let after = plan(downEvents + [renewal("2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z", txn: "t2", product: "howru_premium_monthly")], asOf: "2026-02-02T00:00:00Z", profile: .howru)
        #expect(after.entitlements == ["premium"])
    }

    @Test func transferMovesTheSubscriptionAway() {
        let decider = PlanDecider(profile: .handz)
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"), event(.transfer, "2026-01-10T00:00:00Z") { $0.to = "u2" }]
        let source = plan(events, asOf: "2026-01-11T00:00:00Z")
        #expect(source.planState == .free && source.rule == .transferOut)
        let before = UserTimeline(events.enumerated().map { StoredEvent(event: $1, position: UInt64($0 + 1), recorded: $1.time) })
            .state(decider, user: "u1", at: at("2026-01-09T00:00:00Z"))
        var received = decider.initial(user: "u2")
        #expect(decider.receiveTransfer(&received, before.subscription!, at: at("2026-01-10T00:00:00Z")))
        #expect(decider.view(received, at: at("2026-01-11T00:00:00Z")).planState == .pro && received.rule == .transferIn)
    }

    @Test func transferInLeavesARunningSubscriptionInPlace() {
        let decider = PlanDecider(profile: .handz)
        let given = UserTimeline([purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", txn: "own")].enumerated()
            .map { StoredEvent(event: $1, position: UInt64($0 + 1), recorded: $1.time) })
        var recipient = given.state(decider, user: "u1", at: at("2026-01-09T00:00:00Z"))
        var other = recipient.subscription!
        other.transaction = "theirs"
        other.expires = at("2026-06-01T00:00:00Z")
        #expect(!decider.receiveTransfer(&recipient, other, at: at("2026-01-10T00:00:00Z")))
        #expect(recipient.subscription?.transaction == "own" && recipient.rule == .purchaseStartsPro)
    }

    @Test func creditsAddUpAndNeverGoBelowZero() {
        let events = [event(.consumablePurchase, "2026-01-01T00:00:00Z") { $0.product = "howru_sms_20"; $0.transaction = "c1"; $0.quantity = 20 },
                      event(.creditsUsed, "2026-01-02T00:00:00Z") { $0.quantity = 5 },
                      event(.creditsUsed, "2026-01-03T00:00:00Z") { $0.quantity = 50 }]
        #expect(plan(Array(events.prefix(2)), asOf: "2026-01-02T00:00:00Z", profile: .howru).credits == 15)
        let v = plan(events, asOf: "2026-01-04T00:00:00Z", profile: .howru)
        #expect(v.credits == 0 && v.rule == .creditsUsed && v.planState == .free)
    }

    @Test func sandboxEventsAreKeptApartFromProduction() {
        let events = [purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", env: .sandbox)]
        let v = plan(events, asOf: "2026-01-02T00:00:00Z")
        #expect(v.planState == .guest && v.entitlements.isEmpty && v.rule == .sandboxApart)
        let mixed = plan(events + [purchase("2026-01-05T00:00:00Z", expires: "2026-02-05T00:00:00Z", txn: "t2"),
                                   event(.cancellation, "2026-01-06T00:00:00Z") { $0.environment = .sandbox }], asOf: "2026-01-07T00:00:00Z")
        #expect(mixed.planState == .pro && mixed.autoRenew == true)
    }

    @Test func sameTransactionReportedTwiceCountsOnce() {
        let p = purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
        var copy = p
        copy.id = "client-sync-of-t1"
        copy.time = at("2026-01-01T00:00:05Z")
        let v = plan([p, copy], asOf: "2026-01-02T00:00:00Z")
        #expect(v.planState == .pro && v.rule == .duplicateTransaction)
    }

    @Test func eventsTakeEffectInTimeOrderWhateverTheArrivalOrder() {
        let cancel = event(.cancellation, "2026-01-10T00:00:00Z")
        let p = purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
        #expect(plan([cancel, p], asOf: "2026-02-01T01:00:00Z") == plan([p, cancel], asOf: "2026-02-01T01:00:00Z"))
        #expect(plan([cancel, p], asOf: "2026-02-01T01:00:00Z").planState == .free)
    }

    @Test func CH08_L343_pendingOrFailedPurchaseKeepsTheCurrentPlan() {
        let v = plan([event(.accountCreated, "2026-01-01T00:00:00Z"), event(.purchasePending, "2026-01-02T00:00:00Z"),
                      event(.purchaseFailed, "2026-01-02T00:01:00Z") { $0.reason = "declined" }], asOf: "2026-01-03T00:00:00Z")
        #expect(v.planState == .free && v.rule == .appEvent)
    }

    @Test func CH34_L771_deletingTheAccountDoesNotCancelTheSubscription() {
        let v = plan([purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"), event(.accountDeleted, "2026-01-05T00:00:00Z")], asOf: "2026-01-06T00:00:00Z")
        #expect(v.planState == .pro && v.rule == .accountDeleted)
    }

    // PAUSE (Google Play, RevenueCat SUBSCRIPTION_PAUSED): access runs to expires, then stops with
    // no unverified grace; a later renewal resumes it.
    static let paid = purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
    static func pause(_ time: String, resumesAt: String? = "2026-03-01T00:00:00Z") -> Event {
        event(.pause, time) { $0.resumesAt = resumesAt.map(at) }
    }

    @Test func PAUSE_keepsAccessUntilExpiresWithAutoRenewReadingOff() {
        let v = plan([Self.paid, Self.pause("2026-01-10T00:00:00Z")], asOf: "2026-01-31T23:59:59Z")
        #expect(v.planState == .pro && v.entitlements == ["pro"] && v.rule == .pause)
        #expect(v.autoRenew == false, "the store will not charge at expires while paused")
        #expect(v.expiresAt == at("2026-02-01T00:00:00Z") && v.graceReason == nil)
    }

    @Test func PAUSE_ended_atExpiresThePausedUserIsFreeWithNoUnverifiedGrace() {
        let paused = plan([Self.paid, Self.pause("2026-01-10T00:00:00Z")], asOf: "2026-02-01T01:00:00Z")
        #expect(paused.planState == .free && paused.graceReason == nil && paused.graceEndsAt == nil)
        #expect(paused.entitlements.isEmpty && paused.rule == .pauseEnded && paused.autoRenew == false)
        // The same period without the pause is in unverified grace an hour after expires.
        #expect(plan([Self.paid], asOf: "2026-02-01T01:00:00Z").graceReason == .unverified)
        #expect(plan([Self.paid, Self.pause("2026-01-10T00:00:00Z", resumesAt: nil)], asOf: "2026-02-01T01:00:00Z").rule == .pauseEnded)
    }

    @Test func PAUSE_ended_aPauseReportedDuringTheUnverifiedGraceEndsTheGraceThere() {
        let events = [Self.paid, Self.pause("2026-02-01T06:00:00Z")]
        #expect(plan(events, asOf: "2026-02-01T05:00:00Z").graceReason == .unverified)
        let v = plan(events, asOf: "2026-02-01T06:00:00Z")
        #expect(v.planState == .free && v.graceReason == nil && v.rule == .pauseEnded)
    }

    @Test func PAUSE_aLaterRenewalResumesItUnderTheNormalRenewalRules() {
        let events = [Self.paid, Self.pause("2026-01-10T00:00:00Z"), renewal("2026-03-01T00:00:00Z", expires: "2026-04-01T00:00:00Z", txn: "t2")]
        #expect(plan(events, asOf: "2026-02-15T00:00:00Z").planState == .free)
        let resumed = plan(events, asOf: "2026-03-01T00:00:01Z")
        #expect(resumed.planState == .pro && resumed.rule == .lateRenewal && resumed.autoRenew == true)
        #expect(resumed.expiresAt == at("2026-04-01T00:00:00Z"))
        // Resumed, it is an ordinary auto-renewing period again: unverified grace after its expires.
        #expect(plan(events, asOf: "2026-04-01T01:00:00Z").graceReason == .unverified)
        // A renewal at expires (the pause did not take) is a plain renewal.
        let onTime = [Self.paid, Self.pause("2026-01-10T00:00:00Z"), renewal("2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z", txn: "t2")]
        #expect(plan(onTime, asOf: "2026-02-01T01:00:00Z").rule == .renewal)
    }

    @Test func PAUSE_cancellingAPausedSubscriptionEndsItAsCancelledAndUncancellingPausesItAgain() {
        let cancelled = [Self.paid, Self.pause("2026-01-10T00:00:00Z"), event(.cancellation, "2026-01-12T00:00:00Z")]
        #expect(plan(cancelled, asOf: "2026-01-20T00:00:00Z").planState == .pro)
        let ended = plan(cancelled, asOf: "2026-02-01T01:00:00Z")
        #expect(ended.planState == .free && ended.graceReason == nil && ended.rule == .cancelledEnded)
        let uncancelled = plan(cancelled + [event(.uncancellation, "2026-01-13T00:00:00Z")], asOf: "2026-02-01T01:00:00Z")
        #expect(uncancelled.planState == .free && uncancelled.graceReason == nil && uncancelled.rule == .pauseEnded)
    }

    @Test func PAUSE_refundAndRevokeStillEndAccessAtOnceAndAReversedRefundIsPausedAgain() {
        let refunded = [Self.paid, Self.pause("2026-01-10T00:00:00Z"), event(.refund, "2026-01-15T00:00:00Z") { $0.transaction = "t1" }]
        #expect(plan(refunded, asOf: "2026-01-15T00:00:00Z").planState == .free && plan(refunded, asOf: "2026-01-15T00:00:00Z").rule == .refundCurrent)
        let reversed = refunded + [event(.refundReversed, "2026-01-16T00:00:00Z") { $0.transaction = "t1" }]
        #expect(plan(reversed, asOf: "2026-01-20T00:00:00Z").planState == .pro)
        #expect(plan(reversed, asOf: "2026-02-01T01:00:00Z").rule == .pauseEnded)
        let revoked = plan([Self.paid, Self.pause("2026-01-10T00:00:00Z"), event(.revoke, "2026-01-15T00:00:00Z")], asOf: "2026-01-15T00:00:00Z")
        #expect(revoked.planState == .free && revoked.rule == .revoke)
    }

    @Test func PAUSE_withoutARunningSubscriptionChangesNothing() {
        #expect(plan([Self.pause("2026-01-10T00:00:00Z")], asOf: "2026-01-11T00:00:00Z").rule == .noSubscription)
        let expired = [Self.paid, event(.expiration, "2026-01-05T00:00:00Z"), Self.pause("2026-01-10T00:00:00Z")]
        let v = plan(expired, asOf: "2026-01-11T00:00:00Z")
        #expect(v.planState == .free && v.rule == .noSubscription)
        // A sandbox pause stays with the sandbox subscription.
        let mixed = plan([purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", txn: "s1", env: .sandbox), Self.paid,
                          event(.pause, "2026-01-10T00:00:00Z") { $0.environment = .sandbox }], asOf: "2026-02-01T01:00:00Z")
        #expect(mixed.graceReason == .unverified)
    }

    @Test func PAUSE_ended_theOnlyTimerOfAPausedPeriodIsItsExpires() {
        let decider = PlanDecider(profile: .handz)
        let events = [Self.paid, Self.pause("2026-01-10T00:00:00Z")]
        let s = UserTimeline(events.enumerated().map { StoredEvent(event: $1, position: UInt64($0 + 1), recorded: $1.time) }).state(decider, user: "u1", at: at("2026-03-01T00:00:00Z"))
        #expect(s.subscription?.pausedAt == at("2026-01-10T00:00:00Z") && s.subscription?.resumesAt == at("2026-03-01T00:00:00Z"))
        #expect(decider.timers(s, after: at("2026-01-10T00:00:00Z"), upTo: at("2026-03-01T00:00:00Z")) == [at("2026-02-01T00:00:00Z")])
    }

    @Test func timersTakeEffectWithoutAnyEvent() {
        let decider = PlanDecider(profile: .handz)
        let events = [purchase("2026-01-06T10:00:00Z", expires: "2026-01-13T10:00:00Z", trial: true), event(.cancellation, "2026-01-07T00:00:00Z")]
        let s = UserTimeline(events.enumerated().map { StoredEvent(event: $1, position: UInt64($0 + 1), recorded: $1.time) }).state(decider, user: "u1", at: at("2026-02-01T00:00:00Z"))
        #expect(decider.timers(s, after: at("2026-01-07T00:00:00Z"), upTo: at("2026-02-01T00:00:00Z")) == [at("2026-01-13T10:00:00Z")])
    }
}
