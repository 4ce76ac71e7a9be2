import Testing
@testable import SubscriptionDomain

/// Which users a change of profile reaches (`ProfileChange`): a developer's "billing grace 3 → 7
/// days" reaches the users with a billing issue, a catalog change the users whose events name
/// the product, a rename no one, and anything not classified everyone.
@Suite struct ProfileChanges {
    static let billingIssue = event(.billingIssue, "2026-02-01T00:00:00Z")
    static let view = event(.paywallViewed, "2026-01-01T00:00:00Z") { $0.context = "settings" }
    static let paid = purchase("2026-01-02T00:00:00Z", expires: "2026-02-02T00:00:00Z")
    static let yearly = purchase("2026-01-02T00:00:00Z", expires: "2027-01-02T00:00:00Z", txn: "t2", product: "handz.pro.yearly")
    static let renewed = renewal("2026-02-02T00:00:00Z", expires: "2026-03-02T00:00:00Z", txn: "t3")
    static let expiration = event(.expiration, "2026-03-02T00:00:00Z")
    static let all = [billingIssue, view, paid, yearly, renewed, expiration]

    static func changed(_ edit: (inout Profile) -> Void) -> ProfileChange {
        var new = Profile.handz
        edit(&new)
        return ProfileChange(from: .handz, to: new)
    }

    /// The events of `all` the change reaches, by id.
    static func reached(_ change: ProfileChange) -> [String] { all.filter { change.reaches($0) }.map(\.id) }

    @Test func givenABillingGraceOfSevenDaysThenOnlyBillingIssuesAreReached() {
        let change = Self.changed { $0.billingGraceDays = 7 }
        #expect(!change.reachesEveryone && !change.reachesNobody)
        #expect(Self.reached(change) == [Self.billingIssue.id])
        #expect(change.eventTypes == [.billingIssue])
    }

    @Test func givenAnotherTrialReminderLeadThenOnlyPurchasesAreReached() {
        let change = Self.changed { $0.trialReminderLeadHours = 24 }
        #expect(Self.reached(change) == [Self.paid.id, Self.yearly.id])
        #expect(change.eventTypes == [.purchase])
    }

    @Test func givenAProductsNewPriceThenOnlyTheEventsNamingItAreReached() {
        let change = Self.changed { $0.products[0].price = "12.99" }
        #expect(Self.reached(change) == [Self.paid.id, Self.renewed.id])
        #expect(change.eventTypes == [.purchase, .renewal, .productChange, .consumablePurchase])
        // A product the catalog adds is reached by the events naming it (before, it was unknown).
        let added = Self.changed { $0.products.append(Profile.Product(id: "handz.pro.yearly", kind: .autoRenewable, group: "handz.pro",
                                                                          entitlement: "pro", tier: "pro", price: "99.99", currency: "USD",
                                                                          periodMonths: 12, credits: nil)) }
        #expect(Self.reached(added) == [Self.yearly.id])
        // The first entry of an id is the one the rules read: a second one listed after it changes nothing.
        var twice = Profile.handz
        twice.products.append(Profile.handz.products[0])
        #expect(ProfileChange(from: .handz, to: twice).reachesNobody)
    }

    @Test func givenOnlyNamesTextsTiersOrStoreIdsThenNobodyIsReached() {
        let change = Self.changed {
            $0.name = "what-if"
            $0.deepLinkScheme = "whatif"
            $0.trialEndingCopy = "Soon."
            $0.paymentFailedCopy = "Oops."
            $0.tiers = []
            $0.primaryGroup = "other"
            $0.trialDays = 14
            $0.familySharing = true
            $0.unknownProductEntitlement = "pro"
            $0.bundleId = "com.example.handz"
            $0.appAppleId = 42
        }
        #expect(change.reachesNobody && Self.reached(change).isEmpty && change.eventTypes.isEmpty)
        // A user's plan reads the tiers, the trial length, the primary group and the unknown-product entitlement.
        #expect(change.changesTheView)
        #expect(!Self.changed { $0.name = "what-if"; $0.trialEndingCopy = "Soon."; $0.bundleId = "b"; $0.familySharing = true }.changesTheView)
        #expect(Self.changed { $0.trialDays = 0 }.changesTheView && Self.changed { $0.tiers.removeLast() }.changesTheView)
        #expect(Self.changed { $0.primaryGroup = "x" }.changesTheView && Self.changed { $0.unknownProductEntitlement = "pro" }.changesTheView)
        #expect(!Self.changed { $0.billingGraceDays = 7 }.changesTheView)
    }

    @Test func givenTheUnverifiedGraceTheCommissionOrTheAppThenEveryoneIsReached() {
        for change in [Self.changed { $0.unverifiedGraceHours = 48 }, Self.changed { $0.commissionPercent = 30 },
                       Self.changed { $0.app = "Other" }] {
            #expect(change.reachesEveryone && Self.reached(change).count == Self.all.count)
            #expect(change.eventTypes == Set(EventType.allCases))
        }
        // Several narrow changes at once reach the union of what each reaches.
        let both = Self.changed { $0.billingGraceDays = 7; $0.products[0].periodMonths = 12 }
        #expect(Self.reached(both) == [Self.billingIssue.id, Self.paid.id, Self.renewed.id])
    }

    /// An upgrade or a downgrade names the product changed to, and a credit pack's purchase names
    /// the pack: a new catalog entry of either reaches those events, and not the ones naming another product.
    @Test func givenANewCatalogEntryThenTheProductChangesAndCreditPacksNamingItAreReached() {
        let upgrade = event(.productChange, "2026-01-10T00:00:00Z", id: "up") { $0.product = "howru_family_monthly" }
        let downgrade = event(.productChange, "2026-01-11T00:00:00Z", id: "down") { $0.product = "howru_premium_monthly"; $0.effective = .nextRenewal }
        let sms20 = event(.consumablePurchase, "2026-01-12T00:00:00Z", id: "sms20") { $0.product = "howru_sms_20"; $0.transaction = "c1"; $0.quantity = 20 }
        let sms50 = event(.consumablePurchase, "2026-01-13T00:00:00Z", id: "sms50") { $0.product = "howru_sms_50"; $0.transaction = "c2"; $0.quantity = 50 }
        let events = [upgrade, downgrade, sms20, sms50]
        func reached(_ edit: (inout Profile) -> Void) -> [String] {
            var new = Profile.howru
            edit(&new)
            let change = ProfileChange(from: .howru, to: new)
            #expect(!change.reachesEveryone && !change.readAtEventsOnly)
            return events.filter { change.reaches($0) }.map(\.id)
        }
        let family = Profile.howru.products.firstIndex { $0.id == "howru_family_monthly" }!
        let pack = Profile.howru.products.firstIndex { $0.id == "howru_sms_20" }!
        #expect(reached { $0.products[family].price = "11.99" } == ["up"], "the family plan's new price")
        #expect(reached { $0.products[pack].credits = 25 } == ["sms20"], "the pack's new credits")
        #expect(reached { $0.products[family].periodMonths = 3; $0.products[pack].price = "3.49" } == ["up", "sms20"], "both")
    }

    /// Each field of `Profile` is classified in `ProfileChange.init`; one added later is compared
    /// whole there (it reaches everyone) until it is classified, and this list names it.
    @Test func everyFieldOfTheProfileIsOneTheChangeClassifies() {
        let fields = Mirror(reflecting: Profile.handz).children.compactMap(\.label)
        #expect(fields == ["name", "app", "products", "tiers", "primaryGroup", "trialDays", "billingGraceDays", "unverifiedGraceHours",
                           "trialReminderLeadHours", "commissionPercent", "familySharing", "unknownProductEntitlement", "bundleId",
                           "appAppleId", "deepLinkScheme", "trialEndingCopy", "paymentFailedCopy"])
        #expect(ProfileChange(from: .handz, to: .handz).reachesNobody)
    }
}
