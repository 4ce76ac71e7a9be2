import Testing
@testable import SubscriptionDomain

/// The billing terms the walk reads at every instant of a paying user are the catalog product's
/// own (`PlanDecider.product(_:)`), without copying the product.
@Suite struct BillingTerms {
    @Test func eachBuiltInProductsTermsAreItsPeriodParsedPriceAndCurrency() {
        for profile in Profile.builtIn {
            let decider = PlanDecider(profile: profile)
            for product in profile.products {
                let terms = decider.billingTerms(of: product.id)
                let listed = decider.product(product.id)
                #expect(terms?.periodMonths == listed?.periodMonths, "\(profile.name) \(product.id)")
                #expect(terms?.price == listed.flatMap { Money.parse($0.price) }, "\(profile.name) \(product.id)")
                #expect(terms?.currency == listed?.currency, "\(profile.name) \(product.id)")
            }
            #expect(decider.billingTerms(of: "not.in.the.catalog") == nil, "\(profile.name)")
        }
    }

    @Test func aProductListedTwiceHasTheTermsOfTheFirstAndAPriceThatDoesNotParseHasNone() throws {
        var profile = Profile.handz
        let first = try #require(profile.products.first { $0.periodMonths != nil })
        var again = first
        again.periodMonths = (first.periodMonths ?? 0) + 5
        again.currency = "JPY"
        profile.products.append(again)
        var unpriced = first
        unpriced.id = "unpriced.monthly"
        unpriced.price = "free"
        profile.products.append(unpriced)
        let decider = PlanDecider(profile: profile)
        let terms = try #require(decider.billingTerms(of: first.id))
        #expect(terms.periodMonths == first.periodMonths)
        #expect(terms.currency == first.currency)
        let none = try #require(decider.billingTerms(of: "unpriced.monthly"))
        #expect(none.price == nil)
        #expect(none.periodMonths == first.periodMonths)
    }
}
