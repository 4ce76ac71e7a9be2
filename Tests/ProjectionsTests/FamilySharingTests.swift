import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
import EventCodec
@testable import Projections
import Ingest

/// Family Sharing: a purchase marked `familyShared` is a family member's access,
/// not a sale; a profile that does not offer Family Sharing rejects it at import.
@Suite struct FamilySharing {
    static let member = line("1", "purchase", "kid", "2026-01-01T00:00:00Z",
                             #"{"product":"com.sportstime.pro.monthly","transaction":"f1","expires":"2026-02-01T00:00:00Z","price":"4.99","currency":"USD","familyShared":true}"#)
    static let organizer = line("2", "purchase", "parent", "2026-01-01T00:00:00Z",
                                #"{"product":"com.sportstime.pro.monthly","transaction":"o1","expires":"2026-02-01T00:00:00Z","price":"4.99","currency":"USD"}"#)

    /// Seed 003 ("Family Sharing: Enabled", "Family Sharing included automatically"): the member
    /// gets the entitlement; the organizer's purchase is the sale, the member's is neither revenue
    /// nor a subscription start; `revoke` ends the member's access, and that is not churn.
    @Test func SportsTime_FamilySharingEnabled_aMembersAccessIsNeitherRevenueNorASubscriptionStart() throws {
        let log = try TestLog([Self.member, Self.organizer, line("3", "revoke", "kid", "2026-01-20T00:00:00Z", #"{"reason":"family_sharing_revoked"}"#)],
                              profile: .sportstime)
        let during = try log.replay(at: "2026-01-10T00:00:00Z", profile: .sportstime)
        let kid = during.plan(of: "kid")
        #expect(kid.planState == .pro && kid.entitlements == ["pro"] && kid.tier == "pro")
        #expect(during.counts()["subscription_started"] == 1)
        let revenue = during.revenue()
        #expect(revenue.lines.map(\.gross) == [Money.parse("4.99")!] && revenue.lines.map(\.mrr) == [Money.parse("4.99")!])
        let after = try log.replay(at: "2026-01-25T00:00:00Z", profile: .sportstime)
        #expect(after.plan(of: "kid").planState == .free && after.plan(of: "kid").entitlements.isEmpty)
        #expect(after.revenue().churnedSubscribers == 0)
    }

    /// Seed 004 SK-D05 ("Family Sharing support: Not supported in V1"): under a profile with
    /// `familySharing: false` a family-shared purchase is rejected at import, naming why.
    @Test func SK_D05_aFamilySharedPurchaseIsRejectedWhereFamilySharingIsNotOffered() throws {
        let dir = try TestLog([])
        let shared = Self.member.replacingOccurrences(of: "com.sportstime.pro.monthly", with: "handz.pro.monthly")
        let imported = try dir.append([shared], file: "in.jsonl", profile: .handz)
        #expect(imported.summary.appended == 0 && imported.summary.rejected == 1)
        #expect(imported.rejections.map(\.reason) == ["field 'data.familyShared': profile handz does not offer Family Sharing (familySharing: false)"])
    }

    /// The field is optional and round-trips through the canonical codec; an event without it
    /// encodes as before.
    @Test func familySharedRoundTripsThroughTheCodec() throws {
        let e = try EventCodec.decode(Self.member)
        #expect(e.allFields.familyShared == true)
        #expect(EventCodec.encode(e) == Self.member)
        #expect(try EventCodec.decode(Self.organizer).allFields.familyShared == nil)
        #expect(EventCodec.encode(try EventCodec.decode(Self.organizer)) == Self.organizer)
    }
}
