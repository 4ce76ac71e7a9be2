import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections
import Ingest

/// Products the profile does not list: rejected at import with the reason,
/// unless the profile accepts unknown products with a default entitlement.
@Suite struct CatalogDoor {
    static func importing(_ lines: [String], profile: Profile) throws -> (TestLog, EventImporter.Summary, [EventImporter.Rejection]) {
        let dir = try TestLog([])
        let imported = try dir.append(lines, file: "in.jsonl", profile: profile)
        return (dir, imported.summary, imported.rejections)
    }

    static let unlisted = [
        line("1", "purchase", "u", "2026-01-01T00:00:00Z", #"{"product":"x.unlisted","transaction":"t1","expires":"2026-02-01T00:00:00Z"}"#),
        line("2", "purchase", "v", "2026-01-01T00:00:00Z", #"{"product":"com.mirrormate.premium.monthly","transaction":"t2","expires":"2026-02-01T00:00:00Z"}"#),
        line("3", "product_change", "v", "2026-01-02T00:00:00Z", #"{"product":"x.unlisted"}"#),
        line("4", "renewal", "v", "2026-02-01T00:00:00Z", #"{"product":"x.unlisted","transaction":"t3","expires":"2026-03-01T00:00:00Z"}"#),
        line("5", "consumable_purchase", "v", "2026-01-03T00:00:00Z", #"{"product":"x.pack","transaction":"t4","quantity":5}"#),
    ]

    /// Seed 000 §3.2 (L273 `premiumProductId`, L299: only that product's transaction makes the
    /// user premium): a purchase, product change, renewal or credit pack of a product MirrorMate's
    /// catalog does not list is rejected at import, naming the product; the listed one goes in.
    @Test func MirrorMate_ProductIDs_aProductNotInTheCatalogIsRejectedAtImport() throws {
        let (dir, summary, rejections) = try Self.importing(Self.unlisted, profile: .mirrormate)
        #expect(summary.appended == 1 && summary.rejected == 4)
        #expect(rejections.map(\.line) == [1, 3, 4, 5])
        #expect(rejections.first?.description
            == "in.jsonl:1: field 'data.product': 'x.unlisted' is not in profile mirrormate's catalog (com.mirrormate.premium.monthly)")
        let view = try dir.replay(at: "2026-01-15T00:00:00Z", profile: .mirrormate).plan(of: "v")
        #expect(view.planState == .pro && view.entitlements == ["premium"] && view.tier == "premium")
    }

    /// A profile may accept unknown products (`unknownProductEntitlement`): they go in and give
    /// that entitlement and the tier of the catalog's products that grant it.
    @Test func MirrorMate_ProductIDs_aProfileThatAcceptsUnknownProductsGivesItsDefaultEntitlement() throws {
        var open = Profile.mirrormate
        open.unknownProductEntitlement = "premium"
        let (dir, summary, _) = try Self.importing(Array(Self.unlisted.prefix(1)), profile: open)
        #expect(summary.appended == 1 && summary.rejected == 0)
        let view = try dir.replay(at: "2026-01-15T00:00:00Z", profile: open).plan(of: "u")
        #expect(view.planState == .pro && view.entitlements == ["premium"] && view.tier == "premium")
    }

    /// The default entitlement must be one the catalog grants (so that its tier is known).
    @Test func aDefaultEntitlementNoProductGrantsIsRefused() throws {
        var open = Profile.mirrormate
        open.unknownProductEntitlement = "gold"
        let error = #expect(throws: ProfileError.self) { try open.validate() }
        #expect(error?.description == "unknownProductEntitlement: no product grants entitlement 'gold'")
        // A profile file written before the field loads with the default: unknown products rejected.
        #expect(try Profile.decode(json: Array(Profile.mirrormate.encodedJSON().utf8)).unknownProductEntitlement == nil)
        #expect(!Profile.mirrormate.encodedJSON().contains("unknownProductEntitlement"))
    }
}
