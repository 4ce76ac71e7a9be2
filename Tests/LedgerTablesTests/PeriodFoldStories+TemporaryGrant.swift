import Testing
import SubscriptionDomain
@testable import LedgerTables

/// TEMPORARY-GRANT in the `subscriptions` table: the grant's access is a row of its own, marked
/// `temporary_grant`, booking nothing and outside any renewal chain; the confirmed purchase opens
/// the subscription's first period; a grant while a subscription runs opens nothing.
extension PeriodFoldStories {
    static func grant(_ id: String, _ user: String, _ time: String, txn: String, expires: String) -> String {
        ev(id, "purchase", user, time, #"{"product":"\#(monthly)","transaction":"\#(txn)","expires":"\#(expires)","temporaryGrant":true}"#)
    }

    @Test("TEMPORARY-GRANT alone: a row marked temporary_grant, with no price and no renewal number")
    func grantAlone() throws {
        let p = try periods([Self.grant("1", "g", "2026-03-01T10:00:00Z", txn: "g1", expires: "2026-03-02T10:00:00Z")], at: "2026-03-01T12:00:00Z")
        try #require(p.count == 1)
        #expect(p[0].temporaryGrant && !p[0].familyShared && p[0].price == nil && p[0].renewalNumber == nil)
        #expect(p[0].effectiveEnd == nil && p[0].transaction == "g1")
    }

    @Test("TEMPORARY-GRANT then the confirmed purchase: the grant's row ends at the purchase, whose row is the chain's first and booked")
    func grantThenPurchase() throws {
        let story = [Self.grant("1", "g", "2026-03-01T10:00:00Z", txn: "g1", expires: "2026-03-02T10:00:00Z"),
                     Self.buy("2", "g", "2026-03-01T10:30:00Z", txn: "g1", expires: "2026-04-01T10:30:00Z")]
        let p = try periods(story, at: "2026-03-10T00:00:00Z")
        try #require(p.count == 2)
        #expect(p[0].temporaryGrant && p[0].price == nil && p[0].effectiveEnd == t("2026-03-01T10:30:00Z"))
        #expect(!p[1].temporaryGrant && p[1].price == usd(9_990_000) && p[1].renewalNumber == 1 && p[1].effectiveEnd == nil)
    }

    @Test("TEMPORARY-GRANT while a subscription runs: no row, the running period untouched")
    func grantWhileSubscribed() throws {
        let bought = Self.buy("1", "g", "2026-03-01T09:00:00Z", txn: "s1", expires: "2026-04-01T09:00:00Z")
        let p = try periods([bought, Self.grant("2", "g", "2026-03-01T10:00:00Z", txn: "g1", expires: "2026-03-02T10:00:00Z")], at: "2026-03-10T00:00:00Z")
        #expect(p == (try periods([bought], at: "2026-03-10T00:00:00Z")))
    }
}
