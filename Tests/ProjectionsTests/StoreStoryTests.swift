import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections
import StoreAdapters
import Ingest

/// One story told in App Store notifications, in RevenueCat webhooks and in canonical events
/// (events/stores/*-story.jsonl) gives the same plan state at every instant, for each of its users.
@Suite struct StoreStories {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Handz with a second tier, `handz.pro.max`, that the stories upgrade to (events/stores/profile.json).
    static let profile = try! Profile.decode(json: [UInt8](FileManager.default.contents(atPath: root + "/events/stores/profile.json")!))

    /// The story in `file` imported from `source`, after `first` (canonical events the app reported) when given.
    static func log(_ file: String, _ source: PayloadSource, after first: String? = nil) throws -> (TestLog, EventImporter.Summary) {
        let log = try TestLog([])
        if let first {
            let reported = try log.append(bytes: [UInt8](FileManager.default.contents(atPath: root + "/events/stores/" + first)!), file: first, profile: profile)
            #expect(reported.rejections.isEmpty && reported.summary.duplicates == 0, "\(first): \(reported.rejections)")
        }
        let imported = try log.append(bytes: [UInt8](FileManager.default.contents(atPath: root + "/events/stores/" + file)!), file: file, profile: profile, source: source)
        return (log, imported.summary)
    }

    static let familyMember = "6f1c2d3e-5a4b-4c3d-9e2f-000000000005"

    @Test func theSameStoryFromEachSourceGivesTheSameStateAtEveryInstant() throws {
        // A family member's notifications carry no appAccountToken: the member's app reported the
        // shared transaction first (app-reports.jsonl), and the importer finds the user by it.
        let (apple, a) = try Self.log("appstore-story.jsonl", .appstore, after: "app-reports.jsonl")
        let (rc, r) = try Self.log("revenuecat-story.jsonl", .revenuecat)
        let (canonical, c) = try Self.log("canonical-story.jsonl", .canonical)
        #expect(a.rejected == 0 && r.rejected == 0 && c.rejected == 0)
        #expect(a.skipped == ["TEST": 1] && r.skipped == ["TEST": 1])
        #expect(a.duplicates == 1 && r.duplicates == 1)
        // The first user: trial, conversion, billing issues, cancellation, refund of an older period,
        // expiration. The second: an upgrade charged at once, then refunded. The third (RevenueCat
        // and canonical only): an anonymous trial, then a login and its conversion, kept under the
        // anonymous id the ledger knew first. The fifth: a family member's access through Family
        // Sharing, renewed, then revoked: access, never a sale or a subscription start.
        let decider = PlanDecider(profile: Self.profile)
        func timeline(_ l: TestLog, _ user: String) throws -> UserTimeline {
            try Replay.history(log: try EventLog(directory: l.path, access: .read), user: user, options: ReplayOptions(profile: Self.profile, asOf: .init(nanoseconds: .max))).timeline
        }
        let users: [(String, [(String, TestLog)], Set<PlanState>)] = [
            ("6f1c2d3e-5a4b-4c3d-9e2f-000000000001", [("appstore", apple), ("revenuecat", rc)], [.guest, .trial, .pro, .proGrace, .free]),
            ("6f1c2d3e-5a4b-4c3d-9e2f-000000000002", [("appstore", apple), ("revenuecat", rc)], [.guest, .pro, .free]),
            ("$RCAnonymousID:3b1f0c9e5d7a4e2f8c6b0a9d1e2f3a4b", [("revenuecat", rc)], [.guest, .trial, .pro, .proGrace, .free]),
            (Self.familyMember, [("appstore", apple), ("revenuecat", rc)], [.guest, .pro, .free]),
        ]
        for (user, sources, expectedStates) in users {
            let tc = try timeline(canonical, user)
            let others = try sources.map { ($0.0, try timeline($0.1, user)) }
            var instant = Timestamp.parse("2026-02-28T00:00:00Z")!
            var states: Set<PlanState> = []
            while instant < Timestamp.parse("2026-05-20T00:00:00Z")! {
                let expected = tc.view(decider, user: user, at: instant)
                for (name, t) in others {
                    let v = t.view(decider, user: user, at: instant)
                    #expect(v.planState == expected.planState && v.graceReason == expected.graceReason && v.graceEndsAt == expected.graceEndsAt
                            && v.entitlements == expected.entitlements && v.autoRenew == expected.autoRenew && v.expiresAt == expected.expiresAt,
                            "\(name) for \(user) at \(instant)")
                }
                states.insert(expected.planState)
                instant = instant + .hours(6)
            }
            #expect(states == expectedStates, "\(user)")
        }
        // The member counts no subscription start, in any of the three: two purchasers and the anonymous user.
        for (name, l) in [("appstore", apple), ("revenuecat", rc), ("canonical", canonical)] {
            let r = try l.replay(at: "2026-05-20T00:00:00Z")
            #expect(r.userIDs.contains(Self.familyMember), "\(name)")
            #expect(r.counts()["subscription_started"] == 1, "\(name)")
        }
        let identified = try rc.replay(at: "2026-05-20T00:00:00Z")
        #expect(identified.userIDs.contains("u_identified_3") == false && identified.counts()["trial_converted"] == 2)
        let revenue = { (l: TestLog) in try l.replay(at: "2026-05-20T00:00:00Z").revenue() }
        // RevenueCat fires no refund of an older period: its books lack the first user's 9.99 refund.
        let (rcLine, canonicalLine) = (try revenue(rc).lines.first, try revenue(canonical).lines.first)
        #expect(rcLine?.gross == canonicalLine?.gross && rcLine.map { $0.refunded + Money.parse("9.99")! } == canonicalLine?.refunded)
        // The App Store story has no third user: its books lack that user's one 9.99 renewal.
        let appleLine = try revenue(apple).lines.first
        #expect(appleLine?.refunded == canonicalLine?.refunded && appleLine.map { $0.gross + Money.parse("9.99")! } == canonicalLine?.gross)
    }
}
