import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage
import Platform
import Ingest

/// The report summary (ProjectionStore+Summary.swift) answers `counts`, `funnel`, `revenue` and
/// `notifications` as of an instant exactly as a full rebuild does, after any appends and as the
/// instant moves; it is rebuilt, never trusted, when it does not match the log; and its update
/// reads the new records and the users they touch, not every user.
@Suite struct ReportSummaries {
    static let base = PopulationGenerator(profile: .handz, users: 150, seed: 21).events().map { EventCodec.encode($0) }
    static let start = Timestamp.parse("2026-01-01T00:00:00Z")!

    static func at(_ s: String) -> Timestamp { Timestamp.parse(s)! }

    /// Imports the lines into the log at `path` (duplicates are skipped by the import).
    @discardableResult
    static func append(_ lines: [String], to log: TestLog) throws -> EventImporter.Summary {
        try log.append(lines, file: "t", batch: 7).summary
    }

    /// The summary's four reports as of `instant` equal a full rebuild's; returns what the summary's refresh did.
    @discardableResult
    static func expectSameAsRebuild(_ store: ProjectionStore, _ path: String, at instant: Timestamp,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws -> ProjectionStore.SummaryRefresh {
        let (s, refresh, _) = try store.summary(asOf: instant)
        let full = try Replay.run(directory: path, options: ReplayOptions(profile: store.profile, asOf: instant))
        #expect(s.counts() == full.counts(), "counts as of \(instant)", sourceLocation: sourceLocation)
        #expect(s.funnel() == full.funnel(), "funnel as of \(instant)", sourceLocation: sourceLocation)
        #expect(s.revenue(profile: store.profile) == full.revenue(), "revenue as of \(instant)", sourceLocation: sourceLocation)
        #expect(s.notifications(at: instant, profile: store.profile) == full.notifications(), "notifications as of \(instant)", sourceLocation: sourceLocation)
        return refresh
    }

    /// Random events for existing users (`u_0`…), new users (`n_…`), at random times (late ones
    /// and future-dated ones among them), trial and paid purchases, billing issues, refunds,
    /// transfers between users, and lines already sent (duplicates).
    static func randomEvents(_ rng: inout TestKit.SplitMix64, round: Int, count: Int, sent: [String]) -> [String] {
        func pick(_ n: UInt64) -> Int { Int(rng.next() % n) }
        func user() -> String { pick(3) == 0 ? "n_\(pick(40))" : "u_\(pick(150))" }
        var out: [String] = []
        for i in 0..<count {
            let time = start + .init(nanoseconds: Int64(pick(200 * 86_400)) * 1_000_000_000)
            let t = time.description, id = "r\(round)_\(i)", u = user()
            switch pick(8) {
            case 0:
                out.append(#"{"id":"\#(id)","type":"paywall_viewed","user":"\#(u)","time":"\#(t)","data":{"context":"\#(["settings", "onboarding", "history"][pick(3)])"}}"#)
            case 1:
                out.append(#"{"id":"\#(id)","type":"paywall_cta_tapped","user":"\#(u)","time":"\#(t)","data":{}}"#)
            case 2:
                let trial = pick(2) == 0
                let expires = (time + .days(trial ? 7 : 30)).description
                out.append(#"{"id":"\#(id)","type":"purchase","user":"\#(u)","time":"\#(t)","data":{"product":"handz.pro.monthly","transaction":"\#(id)_t","expires":"\#(expires)",\#(trial ? #""offer":"free_trial","price":"0.00""# : #""price":"9.99""#),"currency":"\#(pick(4) == 0 ? "EUR" : "USD")"}}"#)
            case 3:
                out.append(#"{"id":"\#(id)","type":"billing_issue","user":"\#(u)","time":"\#(t)","data":{}}"#)
            case 4:
                // A paid subscription, handed to another user a day later (some are late: older than what follows).
                let expires = (time + .days(30)).description, handed = (time + .days(1)).description
                out.append(#"{"id":"\#(id)_p","type":"purchase","user":"\#(u)","time":"\#(t)","data":{"product":"handz.pro.monthly","transaction":"\#(id)_t","expires":"\#(expires)","price":"9.99","currency":"USD"}}"#)
                out.append(#"{"id":"\#(id)","type":"transfer","user":"\#(u)","time":"\#(handed)","data":{"to":"\#(user())"}}"#)
            case 5:
                out.append(#"{"id":"\#(id)","type":"refund","user":"\#(u)","time":"\#(t)","data":{"transaction":"u_\#(pick(150))_t1"}}"#)
            case 6:
                out.append(#"{"id":"\#(id)","type":"expiration","user":"\#(u)","time":"\#(t)","data":{}}"#)
            default:
                if !sent.isEmpty { out.append(sent[pick(UInt64(sent.count))]) }
            }
        }
        return out
    }

    @Test func afterRandomAppendsAndAMovingNowTheSummaryAnswersAsAFullRebuild() throws {
        let log = try TestLog(Array(Self.base.prefix(400)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        var rng = TestKit.SplitMix64(seed: 7)
        var sent = Array(Self.base.prefix(400))
        var rest = Array(Self.base.dropFirst(400))
        var now = Self.at("2026-01-20T00:00:00Z")
        #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt)
        var updates = 0, expiredSeen = 0, appended = 0
        for round in 0..<14 {
            // Part of the generated population (in log order), then random events.
            let take = Int(rng.next() % 300)
            var lines = Array(rest.prefix(take))
            rest.removeFirst(min(take, rest.count))
            lines += Self.randomEvents(&rng, round: round, count: Int(rng.next() % 25), sent: sent)
            if round % 4 != 3 { appended += try Self.append(lines, to: log).appended }   // some rounds only move the time
            sent += lines
            // The instant moves forward by up to 20 days, sometimes not at all.
            now = now + .init(nanoseconds: Int64(rng.next() % (20 * 86_400)) * 1_000_000_000 * Int64(round % 5 == 0 ? 0 : 1))
            let r = try Self.expectSameAsRebuild(store, log.path, at: now)
            #expect(!r.rebuilt, "round \(round): the stored summary goes on")
            if r.usersRefolded > 0 { updates += 1 }
            expiredSeen += r.expired
        }
        // The run went through updates, and users whose deadline passed were re-evaluated.
        #expect(updates >= 8)
        #expect(expiredSeen > 0)
        #expect(appended > 300)
    }

    @Test func anInstantBeforeTheSummarysIsAnsweredByARebuild() throws {
        let log = try TestLog(Array(Self.base.prefix(500)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        try Self.expectSameAsRebuild(store, log.path, at: Self.at("2026-04-01T00:00:00Z"))
        #expect(try Self.expectSameAsRebuild(store, log.path, at: Self.at("2026-02-01T00:00:00Z")).rebuilt)
        #expect(try !Self.expectSameAsRebuild(store, log.path, at: Self.at("2026-03-01T00:00:00Z")).rebuilt)
    }

    /// Random events with trials and billing issues, refunds and expirations that drop reminders,
    /// and the billing category switched off and on; the summary as of now gives the schedule at
    /// any earlier instant as a fold up to that instant gives it, byte for byte, without folding.
    @Test func theScheduleAtAnEarlierInstantIsReadFromTheSummaryAsAFoldGivesIt() throws {
        let seed: UInt64 = 29
        var rng = TestKit.SplitMix64(seed: seed)
        func pick(_ n: UInt64) -> Int { Int(rng.next() % n) }
        let log = try TestLog(Array(Self.base.prefix(300)))
        var lines: [String] = []
        for round in 0..<3 { lines += Self.randomEvents(&rng, round: round, count: 60, sent: lines) }
        try Self.append(lines, to: log)   // the random events' taps without a context are rejected
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let now = Self.at("2026-07-01T00:00:00Z")
        // The billing category switched at random, and between some trials' start and their
        // reminder; some of those trials revoked before it fires.
        var switches: [String] = []
        func switchLine(_ user: String, at time: Timestamp) {
            let type = pick(2) == 0 ? "notifications_disabled" : "notifications_enabled"
            switches.append(#"{"id":"sw_\#(switches.count)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":{"category":"billing"}}"#)
        }
        for _ in 0..<60 { switchLine("u_\(pick(150))", at: Self.start + .init(nanoseconds: Int64(pick(200 * 86_400)) * 1_000_000_000)) }
        for n in try store.summary(asOf: now).summary.schedule where n.entry.kind == .trialEnding && pick(3) == 0 {
            let span = (n.entry.fireAt.nanoseconds - n.entry.scheduledAt.nanoseconds) / 1_000_000_000
            func within() -> Timestamp { n.entry.scheduledAt + .init(nanoseconds: Int64(1 + pick(UInt64(span - 1))) * 1_000_000_000) }
            for _ in 0..<(1 + pick(3)) where span > 1 { switchLine(n.user, at: within()) }
            // Some trials end before their reminder fires: it is dropped then.
            if span > 1, pick(3) == 0 {
                switches.append(#"{"id":"sw_\#(switches.count)","type":"revoke","user":"\#(n.user)","time":"\#(within())","data":{}}"#)
            }
        }
        try Self.append(switches, to: log)
        let summary = try store.summary(asOf: now).summary
        var switched = 0, dropped = 0
        for n in summary.schedule {
            switched += n.entry.channelSwitches.count
            if n.entry.cancelled { dropped += 1 }
        }
        #expect(switched > 0 && dropped > 0, "seed \(seed): the schedule has switched and dropped entries")
        var instants = (0..<12).map { _ in Self.start + .init(nanoseconds: Int64(pick(182 * 86_400)) * 1_000_000_000) }
        instants += summary.schedule.prefix(8).flatMap { [$0.entry.scheduledAt, $0.entry.fireAt] }   // on the entries' own instants
        for instant in instants where instant <= now {
            let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: instant)).notifications()
            #expect(summary.notifications(at: instant, profile: .handz) == full, "seed \(seed): the schedule as of \(instant)")
        }
        #expect(try !store.summary(asOf: now).refresh.rebuilt, "the summary as of now is kept")
    }

    @Test func nothingNewAndNoDeadlinePassedReadsAndWritesNothing() throws {
        let log = try TestLog(Array(Self.base.prefix(300)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let later = Self.at("2027-01-01T00:00:00Z")
        try Self.expectSameAsRebuild(store, log.path, at: later)
        let again = try Self.expectSameAsRebuild(store, log.path, at: later + .days(1))
        #expect(again == ProjectionStore.SummaryRefresh())
    }

    /// The update's cost follows the k new records and the users they touch: the same k costs the
    /// same reads on a log of 60 users as on one of 600.
    @Test func anUpdateReadsTheNewRecordsAndTheirUsersStreamsOnly() throws {
        var seen: [Int: ProjectionStore.SummaryRefresh] = [:]
        for users in [60, 600] {
            let lines = PopulationGenerator(profile: .handz, users: users, seed: 5).events().map { EventCodec.encode($0) }
            let log = try TestLog(lines)
            let store = ProjectionStore(logDirectory: log.path, profile: .handz)
            let now = Self.at("2027-01-01T00:00:00Z")
            #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt)
            for k in [1, 5] {
                let new = (0..<k).map { i in
                    #"{"id":"k\#(k)_\#(i)","type":"paywall_viewed","user":"u_\#(i * 7)","time":"2026-06-01T10:00:00Z","data":{"context":"settings"}}"#
                }
                #expect(try Self.append(new, to: log).appended == k)
                let r = try Self.expectSameAsRebuild(store, log.path, at: now)
                #expect(!r.rebuilt && r.recordsRead == k && r.usersRefolded == k && r.streamsRead == k && r.expired == 0 && r.wrote)
                if let other = seen[k] { #expect(r == other) }
                seen[k] = r
            }
        }
        #expect(seen.count == 2)
    }

    @Test func aTransferRefoldsItsRecipientWithItsSender() throws {
        let log = try TestLog(Array(Self.base.prefix(600)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let now = Self.at("2026-03-01T00:00:00Z")
        try Self.expectSameAsRebuild(store, log.path, at: now)
        let lines = [
            #"{"id":"tr_p","type":"purchase","user":"giver","time":"2026-02-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"giver_t","expires":"2026-04-01T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"tr_1","type":"transfer","user":"giver","time":"2026-02-10T00:00:00Z","data":{"to":"taker"}}"#,
        ]
        try Self.append(lines, to: log)
        let r = try Self.expectSameAsRebuild(store, log.path, at: now)
        #expect(r.usersRefolded == 2)
        // A later transfer of the same subscription to someone else moves it: the first recipient is refolded too.
        try Self.append([#"{"id":"tr_2","type":"transfer","user":"giver","time":"2026-02-11T00:00:00Z","data":{"to":"u_3"}}"#], to: log)
        #expect(try Self.expectSameAsRebuild(store, log.path, at: now).usersRefolded == 3)
        // The recipient's subscription expires with time: a deadline, without a record.
        let expired = try Self.expectSameAsRebuild(store, log.path, at: Self.at("2026-05-01T00:00:00Z"))
        #expect(expired.recordsRead == 0 && expired.expired > 0)
    }

    // MARK: - Never trusted when it does not match

    /// A fresh log of `lines` with a summary built as of `instant`; returns the log, store and summary bytes.
    static func summarised(_ lines: [String], at instant: Timestamp) throws -> (TestLog, ProjectionStore, [UInt8]) {
        let log = try TestLog(lines)
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        try expectSameAsRebuild(store, log.path, at: instant)
        return (log, store, try #require(try DurableFile.read(path: store.summaryPath)))
    }

    @Test func aDamagedSummaryIsRebuiltNotTrusted() throws {
        let now = Self.at("2026-03-15T00:00:00Z")
        let (log, store, bytes) = try Self.summarised(Array(Self.base.prefix(300)), at: now)
        // Bit flips across the file (header, sums, deadlines, schedule, CRC) and truncations.
        let step = max(1, bytes.count / 40)
        for offset in stride(from: 0, to: bytes.count, by: step) + [bytes.count - 1] {
            var damaged = bytes
            damaged[offset] ^= 0x10
            Self.writeFile(store.summaryPath, damaged)
            #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt, "bit flip at \(offset)")
        }
        for length in [0, 5, bytes.count / 3, bytes.count - 5, bytes.count - 1] {
            Self.writeFile(store.summaryPath, Array(bytes.prefix(length)))
            #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt, "truncated to \(length)")
        }
        // Whole again: used.
        Self.writeFile(store.summaryPath, bytes)
        #expect(try !Self.expectSameAsRebuild(store, log.path, at: now).rebuilt)
    }

    /// Whole by its CRC but holding values no log gives (a trial day no instant has, more users
    /// than records, sums near Int128's bounds): refused at reading, never a crash in the reports
    /// or in the next update's arithmetic.
    @Test func aSummaryWithValuesOutOfRangeIsRebuiltNotACrash() throws {
        let now = Self.at("2026-03-15T00:00:00Z")
        let (log, store, _) = try Self.summarised(Array(Self.base.prefix(300)), at: now)
        let forgeries: [(String, (inout ReportSummary) -> Void)] = [
            ("day Int64.min", { $0.days[Int64.min] = ReportSummary.DayCount(started: 1, converted: 0) }),
            ("day Int64.max", { $0.days[Int64.max] = ReportSummary.DayCount(started: 1, converted: 0) }),
            ("day 106,752", { $0.days[106_752] = ReportSummary.DayCount(started: 1, converted: 0) }),
            ("day count Int.max", { $0.days[20_000] = ReportSummary.DayCount(started: Int.max, converted: 0) }),
            ("trials started Int.max", { $0.trialsStarted = Int.max }),
            ("users -1", { $0.users = -1 }),
            ("reached Int.min", { $0.reached[1] = Int.min }),
            ("gross Int128.max", { $0.gross["USD"] = ReportSummary.MoneySum(sum: .max, magnitude: .max, holders: 1) }),
            ("holders Int.min", { $0.gross["USD"] = ReportSummary.MoneySum(sum: 0, magnitude: 0, holders: .min) }),
        ]
        for (what, forge) in forgeries {
            var s = try #require(try ReportSummary.read(path: store.summaryPath, depth: .whole))
            forge(&s)
            try s.write(path: store.summaryPath)
            #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt, "\(what)")
        }
    }

    @Test func aSummaryOfAnotherLogOrAheadOfACutTailIsRebuilt() throws {
        let now = Self.at("2026-03-15T00:00:00Z")
        let (_, _, whole) = try Self.summarised(Array(Self.base.prefix(500)), at: now)
        // The same profile's summary, from a log whose first 300 lines are these: ahead of this log's head.
        let (short, shortStore, _) = try Self.summarised(Array(Self.base.prefix(300)), at: now)
        Self.writeFile(shortStore.summaryPath, whole)
        #expect(try Self.expectSameAsRebuild(shortStore, short.path, at: now).rebuilt)
        // A log of other events, as long: same file name, another chain.
        let (other, otherStore, _) = try Self.summarised(Array(Self.base.dropFirst(500).prefix(500)), at: now)
        Self.writeFile(otherStore.summaryPath, whole)
        #expect(try Self.expectSameAsRebuild(otherStore, other.path, at: now).rebuilt)
    }

    /// PROPOSED (mutation testing): a summary of another log whose head is at the same position
    /// (same length, another chain hash) is rebuilt: only the chain hash tells them apart.
    @Test func aSummaryOfAnotherLogWithAHeadAtTheSamePositionIsRebuilt() throws {
        let now = Self.at("2026-03-15T00:00:00Z")
        let lines = Array(Self.base.prefix(300))
        let (theirs, _, summary) = try Self.summarised(lines, at: now)
        // The same lines, one view's context changed: as many records, another chain from there on.
        var altered = lines
        let k = try #require(altered.firstIndex { $0.contains(#""type":"paywall_viewed""#) && $0.contains(#""context":"settings""#) })
        altered[k] = altered[k].replacingOccurrences(of: #""context":"settings""#, with: #""context":"history""#)
        let (ours, store, _) = try Self.summarised(altered, at: now)
        let (a, b) = (try EventLog(directory: theirs.path, access: .read).head, try EventLog(directory: ours.path, access: .read).head)
        try #require(a.position == b.position && a.hash != b.hash)
        Self.writeFile(store.summaryPath, summary)
        #expect(try Self.expectSameAsRebuild(store, ours.path, at: now).rebuilt)
    }

    /// PROPOSED: a deadline exactly at the query's instant is re-evaluated (at or before, as documented).
    @Test func aDeadlineExactlyAtTheQueryInstantIsReEvaluated() throws {
        let log = try TestLog([
            #"{"id":"edge_p","type":"purchase","user":"edge","time":"2026-02-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"edge_t","expires":"2026-03-10T00:00:00Z","price":"9.99","currency":"USD"}}"#,
        ])
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        try Self.expectSameAsRebuild(store, log.path, at: Self.at("2026-03-01T00:00:00Z"))
        let r = try Self.expectSameAsRebuild(store, log.path, at: Self.at("2026-03-10T00:00:00Z"))
        #expect(!r.rebuilt && r.expired == 1 && r.usersRefolded == 1, "\(r)")
    }

    /// PROPOSED: a late event that only moves a notification's fire time (same count, kind and
    /// flags) changes the schedule the summary keeps.
    @Test func aLateEventThatOnlyMovesAFireTimeChangesTheSchedule() throws {
        let log = try TestLog(Array(Self.base.prefix(200)) + [
            #"{"id":"mv_p","type":"purchase","user":"mover","time":"2026-02-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"mv_t","expires":"2026-03-01T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"mv_b2","type":"billing_issue","user":"mover","time":"2026-02-20T00:00:00Z","data":{}}"#,
        ])
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let now = Self.at("2026-02-25T00:00:00Z")
        try Self.expectSameAsRebuild(store, log.path, at: now)
        try Self.append([#"{"id":"mv_b1","type":"billing_issue","user":"mover","time":"2026-02-10T00:00:00Z","data":{}}"#], to: log)
        let r = try Self.expectSameAsRebuild(store, log.path, at: now)
        let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: now)).notifications().filter { $0.user == "mover" }
        #expect(!r.rebuilt && full.count == 1 && full.first?.fireAt == Self.at("2026-02-10T00:00:00Z"), "\(full)")
    }

    /// PROPOSED: taking out every contribution put in leaves nothing: no context, day or currency kept at zero.
    @Test func takingOutEveryContributionPutInLeavesAnEmptySummary() throws {
        let log = try TestLog(Array(Self.base.prefix(600)))
        let now = Self.at("2026-03-15T00:00:00Z")
        let snapshot = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: now))
        var all: [UserContribution] = []
        snapshot.users.forEachFold { f in all.append(UserContribution(f.copied, decider: snapshot.decider, at: now)) }
        var s = ReportSummary(fingerprint: "f", position: 0, hash: .zero, instant: now)
        for c in all { s.add(c, sign: 1) }
        #expect(!s.contexts.isEmpty && !s.days.isEmpty && !s.gross.isEmpty && !s.mrr.isEmpty)
        for c in all.reversed() { s.add(c, sign: -1) }
        #expect(s.users == 0 && s.contexts.isEmpty && s.days.isEmpty && s.gross.isEmpty && s.refunded.isEmpty && s.adjustment.isEmpty && s.mrr.isEmpty)
        #expect(s.metricCounts.allSatisfy { $0 == 0 } && s.reached.allSatisfy { $0 == 0 } && s.active == 0 && s.trials == 0 && s.churned == 0)
    }

    @Test func aSummaryOfOtherRulesIsNotRead() throws {
        let now = Self.at("2026-03-15T00:00:00Z")
        let (log, store, _) = try Self.summarised(Array(Self.base.prefix(300)), at: now)
        var other = store
        other.rulesFingerprint = "another"
        #expect(other.summaryPath != store.summaryPath)
        #expect(try Self.expectSameAsRebuild(other, log.path, at: now).rebuilt)
        // The fingerprint inside is checked too: another store's file under this name is not used.
        Self.writeFile(store.summaryPath, try #require(try DurableFile.read(path: other.summaryPath)))
        #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt)
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
}
