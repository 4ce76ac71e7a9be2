import Foundation
import Testing
import EventStore
import SubscriptionDomain
import Projections

/// A RevenueCat subscriber first seen anonymous (`$RCAnonymousID:…`) and later identified is one
/// subscriber: the identified id reads the anonymous id's history through the log's alias index.
@Suite struct RevenueCatIdentity {
    typealias S = PayloadStory
    static let anonymous = "$RCAnonymousID:8069238d6049ce87cc529853916d624c"
    static let known = "u_42"

    /// The anonymous trial, then a renewal and a cancellation under the identified id.
    static var lines: [[String: Any]] {
        [
            S.revenuecat("rc-1", "INITIAL_PURCHASE", ["app_user_id": anonymous, "original_app_user_id": anonymous, "aliases": [anonymous],
                                                      "period_type": "TRIAL", "price": 0, "price_in_purchased_currency": 0,
                                                      "expiration_at_ms": S.t0 + 7 * S.day]),
            S.revenuecat("rc-2", "RENEWAL", ["app_user_id": known, "original_app_user_id": anonymous, "aliases": [anonymous, known],
                                             "transaction_id": "rc-t2", "purchased_at_ms": S.t0 + 7 * S.day,
                                             "event_timestamp_ms": S.t0 + 7 * S.day, "expiration_at_ms": S.t0 + 37 * S.day]),
            S.revenuecat("rc-3", "CANCELLATION", ["app_user_id": known, "original_app_user_id": anonymous, "aliases": [anonymous, known],
                                                  "cancel_reason": "UNSUBSCRIBE", "event_timestamp_ms": S.t0 + 8 * S.day]),
        ]
    }

    static func indexedLog(_ path: String) throws -> EventLog {
        var options = EventLog.Options()
        options.secondaryKeys = Replay.secondaryKeys
        return try EventLog(directory: path, access: .read, options: options)
    }

    @Test func theIdentifiedIdReadsTheAnonymousHistoryThroughTheAliasIndex() throws {
        let story = try S(.revenuecat, Self.lines)
        #expect(story.rejected.isEmpty, "\(story.rejected)")
        let log = try Self.indexedLog(story.log.path)
        #expect(log.isIndexed(withKeys: Replay.secondaryKeys.name))
        // The events that came under the identified id are filed under the anonymous one, and
        // the index finds them by the identified id.
        let aliased = try log.records(withKey: Replay.aliasKey(Self.known))
        #expect(aliased.map(\.id) == ["rc-2", "rc-3"] && aliased.allSatisfy { $0.stream == Self.anonymous }, "\(aliased.map(\.id))")
        #expect(try Replay.aliasedStreams(of: Self.known, in: log) == [Self.anonymous])
        #expect(try Replay.aliasedStreams(of: Self.anonymous, in: log).isEmpty)
        #expect(try log.version(of: Self.known) == 0)

        let options = ReplayOptions(profile: story.profile, asOf: S.at(days: 10))
        let decider = PlanDecider(profile: story.profile)
        let identified = try Replay.history(log: log, user: Self.known, options: options)
        let anonymous = try Replay.history(log: log, user: Self.anonymous, options: options)
        #expect(identified.timeline.entries.map(\.stored.event.id) == ["rc-1", "rc-2", "rc-3"])
        #expect(identified.sources == [Self.known, Self.anonymous])
        var state = identified.state(decider, at: S.at(days: 10))
        #expect(state.user == Self.known)
        state.user = Self.anonymous
        #expect(state == anonymous.state(decider, at: S.at(days: 10)), "the identified id is the same subscriber")
        let view = decider.view(identified.state(decider, at: S.at(days: 10)), at: S.at(days: 10))
        #expect(view.planState == .pro && view.autoRenew == false && view.trialEligible == false)
    }

    @Test func theUnindexedPathFindsTheSameStreams() throws {
        let story = try S(.revenuecat, Self.lines, batchSize: 1)
        let log = try EventLog(directory: story.log.path, access: .read)   // no secondary keys: one checked pass
        #expect(!log.isIndexed(withKeys: Replay.secondaryKeys.name))
        #expect(try Replay.aliasedStreams(of: Self.known, in: log) == [Self.anonymous])
        let history = try Replay.history(log: log, user: Self.known, options: ReplayOptions(profile: story.profile, asOf: S.at(days: 10)))
        #expect(history.timeline.entries.count == 3)
    }

    @Test func aUserFirstSeenIdentifiedStaysThemselvesAndKeepsNoAlias() throws {
        let lines = [S.revenuecat("rc-1", "INITIAL_PURCHASE", ["app_user_id": Self.known, "original_app_user_id": Self.known, "aliases": [Self.known]])]
        let story = try S(.revenuecat, lines)
        let log = try Self.indexedLog(story.log.path)
        #expect(try log.version(of: Self.known) == 1)
        #expect(try Replay.aliasedStreams(of: Self.known, in: log).isEmpty)
        let record = try #require(try log.records(inStream: Self.known).first)
        #expect(!String(decoding: record.payload, as: UTF8.self).contains(AppUserAlias.field), "no alias field on an event filed under its own id")
    }

    @Test func theRecordsACommitAppendsNameTheUsersWhoseAnswersTheyChange() throws {
        let story = try S(.revenuecat, Self.lines)
        let log = try Self.indexedLog(story.log.path)
        var affected: [[String]] = []
        try log.forEach { r in affected.append(Replay.affectedUsers(stream: r.streamString, payload: Array(r.payload))) }
        #expect(affected == [[Self.anonymous], [Self.anonymous, Self.known], [Self.anonymous, Self.known]], "\(affected)")
        let transfer = Array(#"{"id":"x","type":"transfer","user":"a","time":"2026-01-01T00:00:00Z","data":{"to":"b"}}"#.utf8)
        #expect(Replay.affectedUsers(stream: "a", payload: transfer) == ["a", "b"])
    }
}
