import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// Churn of users who were never charged themselves (docs/rules.md#revenue): a lapsed subscription
/// counts only when its period was a paid one. A purchase at price 0 is a grant, not a paid period,
/// whether the user bought it or received it by transfer; a received subscription whose purchase
/// reported no price was paid at the product's listed price, and its lapse is churn.
@Suite struct ChurnOfUnchargedUsers {
    static func purchase(_ id: String, _ user: String, price: String?) -> String {
        let priced = price.map { #","price":"\#($0)","currency":"USD""# } ?? ""
        return line(id, "purchase", user, "2026-01-02T00:00:00Z",
                    #"{"product":"com.mirrormate.premium.monthly","transaction":"\#(user)1","expires":"2026-02-02T00:00:00Z"\#(priced)}"#)
    }

    @Test func aLapsedPurchaseAtPriceZeroIsNotChurnWhileOneAtAPriceIs() throws {
        let log = try TestLog([Self.purchase("1", "granted", price: "0"), Self.purchase("2", "paying", price: "9.99")],
                              profile: .mirrormate)
        let running = try log.replay(at: "2026-01-20T00:00:00Z", profile: .mirrormate).revenue()
        #expect(running.activeSubscriptions == 2 && running.churnedSubscribers == 0)
        let lapsed = try log.replay(at: "2026-02-10T00:00:00Z", profile: .mirrormate).revenue()
        #expect(lapsed.activeSubscriptions == 0)
        #expect(lapsed.churnedSubscribers == 1 && lapsed.churnRate == 1, "only the user who paid 9.99 has churned")
    }

    @Test func aReceivedSubscriptionIsChurnWhenItLapsesUnlessItWasAGrantAtPriceZero() throws {
        // The recipients were never charged: what counts is the price of the period they received.
        // One sender bought at price 0 (a grant), the other without a price (the listed 9.99 applies).
        let log = try TestLog([
            Self.purchase("1", "grantSender", price: "0"),
            line("2", "transfer", "grantSender", "2026-01-10T00:00:00Z", #"{"to":"grantRecipient"}"#),
            Self.purchase("3", "listedSender", price: nil),
            line("4", "transfer", "listedSender", "2026-01-10T00:00:00Z", #"{"to":"listedRecipient"}"#),
        ], profile: .mirrormate)
        let moved = try log.replay(at: "2026-01-20T00:00:00Z", profile: .mirrormate).revenue()
        #expect(moved.activeSubscriptions == 2 && moved.churnedSubscribers == 0)
        let lapsed = try log.replay(at: "2026-02-10T00:00:00Z", profile: .mirrormate)
        #expect(lapsed.revenue().activeSubscriptions == 0)
        #expect(lapsed.revenue().churnedSubscribers == 1, "only the recipient of the period paid at the listed price has churned")
        #expect(lapsed.plan(of: "grantRecipient").planState == .free && lapsed.plan(of: "listedRecipient").planState == .free)
    }
}
