import Foundation
import Testing
import LedgerFixture
import TestKit
import EventStore
import SubscriptionDomain
@testable import Projections
@testable import ProjectionStorage

/// The user table behind every replay: its open-addressing index must find every user by id
/// bytes or string, survive removals in any order, and never confuse two users.
@Suite struct UserTableIndexing {
    static func ids(_ n: Int) -> [String] { (0..<n).map { i in i % 3 == 0 ? "user-\(i)-with-a-long-uuid-like-suffix" : "u\(i)" } }

    @Test func everyUserIsFoundByStringAndByBytesAfterGrowth() {
        var table = UserTable<UserFold>()
        let users = Self.ids(5_000)
        for (i, u) in users.enumerated() {
            if i.isMultiple(of: 2) {
                table.update(u) { $0.state.credits = i }
            } else {
                var bytes = Array(u.utf8)
                bytes.withUnsafeMutableBytes { b in table[slot: table.slot(adding: UnsafeRawBufferPointer(b))].state.credits = i }
            }
        }
        #expect(table.count == users.count)
        for (i, u) in users.enumerated() {
            #expect(table[u]?.state.credits == i)
            #expect(table[u]?.state.user == u)
        }
        #expect(table["absent"] == nil && table["u"] == nil)
        // A second update finds the same fold instead of adding one.
        table.update(users[7]) { $0.state.credits += 1 }
        #expect(table.count == users.count && table[users[7]]?.state.credits == 8)
    }

    @Test func removalsInAnyOrderLeaveEveryOtherUserFindable() {
        var table = UserTable<UserFold>()
        let users = Self.ids(1_200)
        for (i, u) in users.enumerated() { table.update(u) { $0.state.credits = i } }
        var generator = TestKit.SplitMix64(seed: 7)
        var remaining = Dictionary(uniqueKeysWithValues: users.enumerated().map { ($1, $0) })
        let removed = Array(users.shuffled(using: &generator).prefix(900))
        for u in removed {
            table[u] = nil
            remaining[u] = nil
            #expect(table[u] == nil)
            #expect(table.count == remaining.count)
        }
        for (u, i) in remaining { #expect(table[u]?.state.credits == i, "\(u)") }
        // A removed user can come back, as a new fold.
        table.update(removed[0]) { $0.state.credits -= 1 }
        #expect(table[removed[0]]?.state.credits == -1 && table.count == remaining.count + 1)
    }

    @Test func aSlotNamesTheSameUsersStateUntilTheUserIsRemoved() {
        var table = UserTable<SubscriberState>()
        let users = Self.ids(2_000)
        let slots = users.map { table.slot(adding: $0) }
        #expect(slots == Array(0..<users.count), "new users take the next slot")
        for (i, u) in users.enumerated() {
            #expect(table.slot(adding: u) == slots[i], "a known user keeps their slot")
            table[slot: slots[i]].credits += i
        }
        for (i, u) in users.enumerated() { #expect(table[u]?.credits == i && table[slot: slots[i]].user == u) }
        #expect(table.count == users.count)
    }

    @Test func theLateUsersAreExactlyTheUsersFoldedOutOfOrder() {
        var table = UserTable<UserFold>()
        let users = Self.ids(3_000)
        for (i, u) in users.enumerated() { table.update(u) { $0.outOfOrder = i.isMultiple(of: 7) } }
        #expect(table.outOfOrderUsers() == Set(users.enumerated().filter { $0.offset.isMultiple(of: 7) }.map(\.element)))
    }

    @Test func theUserFilterAnswersExactlyItsUsers() {
        let users = Self.ids(3_000)
        var filter = UserFilter(bits: 1 << 10)   // few bits: many hash hits must still be told apart
        for (i, u) in users.enumerated() where i.isMultiple(of: 7) { filter.insert(u) }
        for (i, u) in users.enumerated() {
            var bytes = Array(u.utf8)
            let member = bytes.withUnsafeMutableBytes { filter.member(UnsafeRawBufferPointer($0)) }
            #expect(member == (i.isMultiple(of: 7) ? u : nil), "\(u)")
        }
    }
}

@Suite struct ReplayRecordChecks {
    @Test func aRecordWhoseStreamIsNotItsEventsUserIsNamedByPosition() throws {
        let scratch = Scratch()
        let path = scratch.log
        let log = try EventLog(directory: path)
        try log.append([
            ProposedRecord(id: "1", stream: "a", payload: Array(line("1", "account_created", "a", "2026-01-01T00:00:00Z").utf8)),
            ProposedRecord(id: "2", stream: "a", payload: Array(line("2", "account_created", "b", "2026-01-01T00:00:00Z").utf8)),
        ])
        let error = #expect(throws: ProjectionError.self) {
            try Replay.run(directory: path, options: ReplayOptions(profile: .handz, asOf: Timestamp.parse("2026-02-01T00:00:00Z")!))
        }
        #expect(error?.position == 2)
        #expect(error.map { "\($0)" }?.contains("'b' is not the record's stream 'a'") == true)
    }

    /// The log keeps record ids unique; folds rely on event ids being unique too (a user's
    /// events sorted into effect order never repeat one), so the two must be the same.
    @Test func aRecordWhoseIdIsNotItsEventsIdIsNamedByPosition() throws {
        let scratch = Scratch()
        let path = scratch.log
        let log = try EventLog(directory: path)
        try log.append([ProposedRecord(id: "1", stream: "a", payload: Array(line("1", "account_created", "a", "2026-01-01T00:00:00Z").utf8))])
        let store = ProjectionStore(logDirectory: path, profile: .handz)
        try store.refresh()
        try log.append([ProposedRecord(id: "2", stream: "a", payload: Array(line("1", "account_created", "a", "2026-01-02T00:00:00Z").utf8))])
        // The kept projection's catch-up checks the record as the full rebuilds do.
        let caughtUp = #expect(throws: ProjectionError.self) { try store.refresh() }
        #expect(caughtUp?.position == 2)
        for cache in [false, true] {
            var options = ReplayOptions(profile: .handz, asOf: Timestamp.parse("2026-02-01T00:00:00Z")!)
            options.buildEventCache = cache
            let error = #expect(throws: ProjectionError.self) { try Replay.run(directory: path, options: options) }
            #expect(error?.position == 2)
            #expect(error.map { "\($0)" }?.contains("the event's id '1' is not the record's id '2'") == true)
        }
    }
}

@Suite struct HotPathLookups {
    /// The switches that replace array searches in the replay loop agree with the arrays.
    @Test func funnelStepSwitchMatchesItsList() {
        for type in EventType.allCases {
            #expect(FunnelProgress.step(of: type) == FunnelProgress.steps.firstIndex(of: type), "\(type)")
        }
    }
}
