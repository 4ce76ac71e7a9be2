import Testing
import StoreAdapters
import StoreFixtures
@testable import SubscriptionDomain

/// Both store importers carry Family Sharing into the canonical `familyShared`.
@Suite struct FamilySharedPayloads {
    typealias F = StoreFixtures

    /// Apple's `inAppOwnershipType: FAMILY_SHARED` (a member's transaction) on a purchase and a
    /// renewal; `PURCHASED` (the organizer's own) leaves the field out.
    @Test func SportsTime_FamilySharing_appleInAppOwnershipTypeFamilySharedIsCarried() throws {
        let shared = F.transaction(["inAppOwnershipType": "FAMILY_SHARED"])
        #expect(try F.event(F.apple("SUBSCRIBED", "INITIAL_BUY", tx: shared), .appstore).allFields.familyShared == true)
        #expect(try F.event(F.apple("DID_RENEW", tx: shared), .appstore).allFields.familyShared == true)
        let own = F.transaction(["inAppOwnershipType": "PURCHASED"])
        #expect(try F.event(F.apple("SUBSCRIBED", "INITIAL_BUY", tx: own), .appstore).allFields.familyShared == nil)
    }

    /// RevenueCat's `is_family_share: true` on INITIAL_PURCHASE and RENEWAL; false leaves it out.
    @Test func SportsTime_FamilySharing_revenueCatIsFamilyShareIsCarried() throws {
        #expect(try F.event(F.revenuecat("INITIAL_PURCHASE", ["is_family_share": true]), .revenuecat).allFields.familyShared == true)
        #expect(try F.event(F.revenuecat("RENEWAL", ["is_family_share": true]), .revenuecat).allFields.familyShared == true)
        #expect(try F.event(F.revenuecat("INITIAL_PURCHASE", ["is_family_share": false]), .revenuecat).allFields.familyShared == nil)
    }
}
