import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
import EventCodec
@testable import Projections

/// `state` and `history` for one user read the user's stream and the transfers to them, and must
/// agree with the full replay that `revenue`, `counts` and `diff` use (TRANSFER-OUT / TRANSFER-IN).
@Suite struct UserHistories {
    static func history(_ log: TestLog, _ user: String, at: String, profile: Profile = .handz) throws -> UserHistory {
        try Replay.history(log: try EventLog(directory: log.path, access: .read), user: user,
                           options: ReplayOptions(profile: profile, asOf: Timestamp.parse(at)!))
    }

    static func plan(_ h: UserHistory, at: String, profile: Profile = .handz) -> PlanView {
        let decider = PlanDecider(profile: profile), instant = Timestamp.parse(at)!
        return decider.view(h.state(decider, at: instant), at: instant)
    }

    @Test func transferInReachesTheRecipientsOwnQuery() throws {
        let log = try TestLog([
            line("1", "purchase", "old", "2026-01-01T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-01T00:00:00Z"}"#),
            line("2", "paywall_viewed", "new", "2026-01-05T00:00:00Z", #"{"context":"onboarding"}"#),
            line("3", "transfer", "old", "2026-01-10T00:00:00Z", #"{"to":"new"}"#),
        ])
        let h = try Self.history(log, "new", at: "2026-01-11T00:00:00Z")
        #expect(h.transfersIn.map(\.from) == ["old"] && h.transfersIn.map(\.stored.position) == [3])
        #expect(h.transfersIn.first?.subscription.transaction == "t1")
        let view = Self.plan(h, at: "2026-01-11T00:00:00Z")
        #expect(view.planState == .pro && view.rule == .transferIn)
        #expect(view == (try log.replay(at: "2026-01-11T00:00:00Z")).plan(of: "new"))
        // As of before the transfer, nothing has moved yet.
        let before = try Self.history(log, "new", at: "2026-01-09T00:00:00Z")
        #expect(before.transfersIn.isEmpty && Self.plan(before, at: "2026-01-09T00:00:00Z").planState == .guest)
    }

    @Test func transferInLeavesTheRecipientsRunningSubscription() throws {
        let log = try TestLog([
            line("1", "purchase", "old", "2026-01-01T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-01T00:00:00Z"}"#),
            line("2", "purchase", "new", "2026-01-02T00:00:00Z", #"{"product":"handz.pro.yearly","transaction":"n1","expires":"2027-01-02T00:00:00Z"}"#),
            line("3", "transfer", "old", "2026-01-10T00:00:00Z", #"{"to":"new"}"#),
        ], profile: Profile.handz.lenientDoor)
        let h = try Self.history(log, "new", at: "2026-01-11T00:00:00Z")
        #expect(h.transfersIn.count == 1)
        let view = Self.plan(h, at: "2026-01-11T00:00:00Z")
        #expect(view.product == "handz.pro.yearly" && view.rule != .transferIn)
        #expect(view == (try log.replay(at: "2026-01-11T00:00:00Z")).plan(of: "new"))
    }

    /// serve keeps an entitlements answer until `nextChange`: the state's next timer (a trial's
    /// end), a record of the user dated later, or a transfer to the user dated later.
    @Test func anAnswerChangesNextAtTheTrialsEndALaterRecordOrALaterTransferIn() throws {
        let decider = PlanDecider(profile: .handz)
        func next(_ log: TestLog, _ user: String, at: String) throws -> Timestamp? {
            let h = try Self.history(log, user, at: at), now = Timestamp.parse(at)!
            return h.nextChange(after: now, state: h.state(decider, at: now), decider: decider)
        }
        let trial = try TestLog([
            line("1", "purchase", "t", "2026-01-05T09:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-01-12T09:00:00Z","offer":"free_trial","price":"0.00","currency":"USD"}"#),
        ])
        #expect(try next(trial, "t", at: "2026-01-06T00:00:00Z") == Timestamp.parse("2026-01-12T09:00:00Z"))
        let later = try TestLog([
            line("1", "paywall_viewed", "l", "2026-01-01T00:00:00Z", #"{"context":"onboarding"}"#),
            line("2", "paywall_viewed", "l", "2026-01-20T00:00:00Z", #"{"context":"settings"}"#),
        ])
        #expect(try next(later, "l", at: "2026-01-10T00:00:00Z") == Timestamp.parse("2026-01-20T00:00:00Z"))
        #expect(try next(later, "l", at: "2026-01-21T00:00:00Z") == nil)
        let given = try TestLog([
            line("1", "purchase", "old", "2026-01-01T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"y1","expires":"2026-02-01T00:00:00Z"}"#),
            line("2", "paywall_viewed", "new", "2026-01-02T00:00:00Z", #"{"context":"onboarding"}"#),
            line("3", "transfer", "old", "2026-01-20T00:00:00Z", #"{"to":"new"}"#),
        ])
        #expect(try next(given, "new", at: "2026-01-10T00:00:00Z") == Timestamp.parse("2026-01-20T00:00:00Z"))
    }

    @Test func aTransferToSomeoneElseIsNotHandedOver() throws {
        // "new" appears in the sender's payloads too (as a product id), but only a transfer's `to` names a recipient.
        let log = try TestLog([
            line("1", "purchase", "old", "2026-01-01T00:00:00Z", #"{"product":"new","transaction":"t1","expires":"2026-02-01T00:00:00Z"}"#),
            line("2", "transfer", "old", "2026-01-10T00:00:00Z", #"{"to":"newer"}"#),
            line("3", "paywall_viewed", "new", "2026-01-05T00:00:00Z", #"{"context":"onboarding"}"#),
        ], profile: Profile.handz.lenientDoor)
        let h = try Self.history(log, "new", at: "2026-01-11T00:00:00Z")
        #expect(h.transfersIn.isEmpty)
        #expect(Self.plan(h, at: "2026-01-11T00:00:00Z").planState == .guest)
        #expect(try Self.history(log, "newer", at: "2026-01-11T00:00:00Z").transfersIn.map(\.from) == ["old"])
    }

    @Test func everySampleUsersStateMatchesTheFullReplay() throws {
        let root = StoreStories.root + "/events/"
        let samples: [(String, Profile)] = [("handz", .handz), ("mirrormate", .mirrormate), ("tomo", .tomo), ("howru", .howru), ("sportstime", .sportstime)]
        var compared = 0
        for (name, profile) in samples {
            let text = String(decoding: FileManager.default.contents(atPath: root + name + ".jsonl")!, as: UTF8.self)
            let log = try TestLog(text.split(separator: "\n").map(String.init), profile: profile)
            for at in ["2026-01-20T00:00:00Z", "2026-03-01T00:00:00Z", "2026-12-31T00:00:00Z"] {
                let snapshot = try log.replay(at: at, profile: profile)
                for user in snapshot.userIDs {
                    #expect(Self.plan(try Self.history(log, user, at: at, profile: profile), at: at, profile: profile) == snapshot.plan(of: user),
                            "\(name) \(user) at \(at)")
                    compared += 1
                }
            }
        }
        #expect(compared > 50)
    }

    @Test func byteSearchFindsANeedleAnywhereAndOnlyWhole() {
        func has(_ hay: String, _ needle: String) -> Bool {
            Array(hay.utf8).withUnsafeBytes { h in Array(needle.utf8).withUnsafeBytes { EventCodec.line(h, holds: $0) } }
        }
        #expect(has(#"{"to":"new"}"#, #""new""#))
        #expect(has(#""new"...."#, #""new""#))
        #expect(!has(#"{"to":"newer"}"#, #""new""#))
        #expect(!has(#""ne"#, #""new""#))
        #expect(has("aab", "ab") && !has("", "a"))
    }
}
