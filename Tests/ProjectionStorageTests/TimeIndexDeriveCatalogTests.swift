import Testing
import TestKit
import LedgerFixture
import SubscriptionDomain
@_spi(Testing) @testable import ProjectionStorage

extension TimeIndexDerivations {
    /// A catalog change reaches the users whose events name a product it changes, whichever the
    /// event: an upgrade names the plan changed to (not the one purchased), a credit pack's
    /// purchase names the pack. Those users are walked, the others are not, and the index
    /// derived holds the steps a build under the new catalog holds.
    @Test func aCatalogChangeWalksTheUsersWhoseUpgradeOrCreditPackNamesAChangedProduct() throws {
        func line(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String) -> String {
            #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
        }
        let log = try TestLog([
            line("h1", "purchase", "upgrader", "2026-01-01T00:00:00Z",
                 #"{"product":"howru_premium_monthly","transaction":"z1","expires":"2026-02-01T00:00:00Z","price":"4.99","currency":"USD"}"#),
            line("h2", "product_change", "upgrader", "2026-01-10T00:00:00Z",
                 #"{"product":"howru_family_monthly","effective":"immediate","transaction":"z2","price":"9.99","currency":"USD","expires":"2026-02-10T00:00:00Z"}"#),
            // Without a reported price: the catalog's is the sale's.
            line("h3", "consumable_purchase", "texter", "2026-01-12T00:00:00Z",
                 #"{"product":"howru_sms_20","transaction":"z3","quantity":20,"currency":"USD"}"#),
            line("h4", "consumable_purchase", "other-pack", "2026-01-13T00:00:00Z",
                 #"{"product":"howru_sms_50","transaction":"z4","quantity":50,"price":"4.99","currency":"USD"}"#),
            line("h5", "purchase", "premium", "2026-01-02T00:00:00Z",
                 #"{"product":"howru_premium_monthly","transaction":"z5","expires":"2026-02-02T00:00:00Z","price":"4.99","currency":"USD"}"#),
        ], profile: .howru)
        #expect(try ProjectionStore(logDirectory: log.path, profile: .howru).refreshedTimeIndex().refresh.rebuilt, "the kept index is built")
        var changed = Profile.howru
        let family = try #require(changed.products.firstIndex { $0.id == "howru_family_monthly" })
        let pack = try #require(changed.products.firstIndex { $0.id == "howru_sms_20" })
        changed.products[family].periodMonths = 3
        changed.products[pack].price = "3.49"
        var store = ProjectionStore(logDirectory: log.path, profile: changed)
        store.derivationShare = 1   // derived however many events the users it reaches hold
        let (index, refresh) = try store.refreshedTimeIndex()
        let derivation = try #require(refresh.derivation, "derived, not built")
        #expect(derivation.usersWalked == 2, "the upgrader and the texter are walked, walked \(derivation.usersWalked)")
        try Self.expectSameAsBuild(index, store, "the family plan quarterly, the 20-credit pack at 3.49")
    }
}
