import Foundation
import Testing
import EventStore
import SubscriptionDomain
@testable import Projections

/// One user's story told in App Store notifications, in RevenueCat webhooks and in canonical events
/// (events/stores/*-story.jsonl) gives the same plan state at every instant.
@Suite struct StoreStories {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func log(_ file: String, _ source: PayloadSource) throws -> (TestLog, EventImporter.Summary) {
        let log = try TestLog([])
        var importer = EventImporter(log: try EventLog(directory: log.path))
        importer.source = source
        var summary = EventImporter.Summary()
        try importer.importLines([UInt8](FileManager.default.contents(atPath: root + "/events/stores/" + file)!), file: file, into: &summary)
        return (log, summary)
    }

    @Test func theSameStoryFromEachSourceGivesTheSameStateAtEveryInstant() throws {
        let (apple, a) = try Self.log("appstore-story.jsonl", .appstore)
        let (rc, r) = try Self.log("revenuecat-story.jsonl", .revenuecat)
        let (canonical, c) = try Self.log("canonical-story.jsonl", .canonical)
        #expect(a.rejected == 0 && r.rejected == 0 && c.rejected == 0)
        #expect(a.skipped == ["TEST": 1] && r.skipped == ["TEST": 1])
        #expect(a.duplicates == 1 && r.duplicates == 1)
        let user = "6f1c2d3e-5a4b-4c3d-9e2f-000000000001"
        let decider = PlanDecider(profile: .handz)
        func timeline(_ l: TestLog) throws -> UserTimeline {
            try Replay.history(log: try EventLog(directory: l.path, access: .read), user: user, options: ReplayOptions(profile: .handz, asOf: .init(nanoseconds: .max))).timeline
        }
        let (ta, tr, tc) = (try timeline(apple), try timeline(rc), try timeline(canonical))
        var instant = Timestamp.parse("2026-02-28T00:00:00Z")!
        var states: Set<PlanState> = []
        while instant < Timestamp.parse("2026-05-20T00:00:00Z")! {
            let expected = tc.view(decider, user: user, at: instant)
            for (name, t) in [("appstore", ta), ("revenuecat", tr)] {
                let v = t.view(decider, user: user, at: instant)
                #expect(v.planState == expected.planState && v.graceReason == expected.graceReason && v.graceEndsAt == expected.graceEndsAt
                        && v.entitlements == expected.entitlements && v.autoRenew == expected.autoRenew && v.expiresAt == expected.expiresAt,
                        "\(name) at \(instant)")
            }
            states.insert(expected.planState)
            instant = instant + .hours(6)
        }
        #expect(states == [.guest, .trial, .pro, .proGrace, .free])
        let revenue = { (l: TestLog) in try l.replay(at: "2026-05-20T00:00:00Z").revenue() }
        #expect(try revenue(apple) == revenue(canonical))
    }
}
