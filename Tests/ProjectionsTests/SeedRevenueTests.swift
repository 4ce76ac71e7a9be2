import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// Revenue requirements read from the seed documents, each test named after its seed line.
@Suite struct SeedRevenue {
    static func premium(_ user: String) -> String {
        line("\(user)-1", "purchase", user, "2026-01-01T00:00:00Z",
             #"{"product":"howru_premium_monthly","transaction":"\#(user)1","expires":"2026-02-01T00:00:00Z","price":"4.99","currency":"USD"}"#)
    }

    /// Seed 002 §2 "Products to Create" (family monthly $9.99, premium yearly $39.99) with seed 004
    /// SK-D07 (changes apply at once): after an immediate change, MRR is the new product's price
    /// over its period, not the old product's.
    @Test func HowRU_Products_mrrIsTheNewProductsPriceOverItsPeriodAfterAnImmediateChange() throws {
        let log = try TestLog([
            Self.premium("family"),
            line("family-2", "product_change", "family", "2026-01-10T00:00:00Z", #"{"product":"howru_family_monthly"}"#),
            Self.premium("yearly"),
            line("yearly-2", "product_change", "yearly", "2026-01-10T00:00:00Z", #"{"product":"howru_premium_yearly"}"#),
        ], profile: .howru)
        let family = try log.replay(at: "2026-01-15T00:00:00Z", profile: .howru).revenue()
        #expect(family.activeSubscriptions == 2)
        // 9.99 (family monthly) + 39.99 / 12 (premium yearly) = 9.99 + 3.3325.
        #expect(family.lines.map(\.mrr) == [Money.parse("13.3225")!])
    }

    /// The same when the change waits for the renewal (SK-D07 next_renewal) and the renewal
    /// reports no price: the new product's listed price, not the old period's.
    @Test func HowRU_Products_mrrFollowsAProductChangedAtRenewal() throws {
        let log = try TestLog([
            Self.premium("later"),
            line("later-2", "product_change", "later", "2026-01-10T00:00:00Z", #"{"product":"howru_family_monthly","effective":"next_renewal"}"#),
            line("later-3", "renewal", "later", "2026-02-01T00:00:00Z", #"{"product":"howru_family_monthly","transaction":"later2","expires":"2026-03-01T00:00:00Z"}"#),
        ], profile: .howru)
        #expect(try log.replay(at: "2026-01-15T00:00:00Z", profile: .howru).revenue().lines.map(\.mrr) == [Money.parse("4.99")!])
        #expect(try log.replay(at: "2026-02-15T00:00:00Z", profile: .howru).revenue().lines.map(\.mrr) == [Money.parse("9.99")!])
    }

    /// Seed 002 §8 "Costs at 10K Users" (L418: "Apple (30% cut)"): HowRU's own figure is 30 %, so
    /// net revenue keeps 70 % of what was charged.
    @Test func HowRU_L418_appleTakesThirtyPercentOfHowRUsRevenue() throws {
        #expect(Profile.howru.commissionPercent == 30)
        let r = try TestLog([Self.premium("payer")], profile: .howru).replay(at: "2026-01-15T00:00:00Z", profile: .howru).revenue()
        #expect(r.lines.map(\.net) == [Money.parse("3.493")!])
    }
}
