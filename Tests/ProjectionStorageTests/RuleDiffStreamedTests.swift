import Testing
import TestKit
import LedgerFixture
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// `diff` from the event cache folds each user under both rule sets side by side and keeps only
/// differences; what it gives is what comparing two whole snapshots gives, transfers included
/// (recipients folded again once every sender is known, senders in id order).
@Suite struct StreamedRuleDiffs {
    /// The comparison of two snapshots folded from the log (not from the cache).
    static func fromSnapshots(_ log: TestLog, _ a: Profile, _ b: Profile, at: Timestamp, partitions: Int) throws -> [PlanDifference] {
        func snapshot(_ p: Profile) throws -> LedgerSnapshot {
            var o = ReplayOptions(profile: p, asOf: at)
            o.eventCache = false
            o.partitions = partitions
            return try Replay.run(directory: log.path, options: o)
        }
        return RuleDiff.compare(try snapshot(a), try snapshot(b))
    }

    static let rules: [(String, Profile)] = {
        var seven = Profile.handz
        seven.billingGraceDays = 7
        var short = Profile.handz
        short.unverifiedGraceHours = 1
        short.billingGraceDays = 0
        var gold = Profile.handz
        gold.products[0].entitlement = "gold"
        var noTrial = Profile.handz
        noTrial.trialDays = 0
        var reminder = Profile.handz
        reminder.trialReminderLeadHours = 1
        // Narrow changes (only the users they reach are read), one for everyone, one of the entitlement view.
        return [("grace 3 vs 7 days", seven), ("grace 3 days vs none, unverified 1 hour", short), ("a gold entitlement", gold),
                ("no trial offered", noTrial), ("a trial reminder an hour ahead", reminder)]
    }()

    @Test func randomLogsWithTransfersGiveWhatTwoWholeSnapshotsGiveAtRandomInstants() throws {
        let seed: UInt64 = 0xD1FF_5EED
        var rng = SplitMix64(seed: seed)
        let log = try TestLog(Array(ReportSummaries.base.prefix(500)) + Self.story)
        var sent: [String] = []
        for round in 0..<4 {
            // (Some lines are rejected or duplicates: the importer keeps them out, as for any log.)
            let lines = ReportSummaries.randomEvents(&rng, round: round, count: 60, sent: sent)
            _ = try ReportSummaries.append(lines, to: log)
            sent += lines
        }
        #expect(try RuleDiff.streamed(directory: log.path, a: .handz, b: Self.rules[0].1, asOf: ReportSummaries.start, partitions: 2) == nil,
                "without an event cache the caller folds the snapshots")
        _ = try Replay.buildEventCache(directory: log.path)
        var differing = 0
        for round in 0..<12 {
            let at = ReportSummaries.start + .init(nanoseconds: Int64(rng.next() % (220 * 86_400)) * 1_000_000_000)
            let (name, other) = Self.rules[round % Self.rules.count]
            let partitions = 1 + round % 3
            let streamed = try #require(try RuleDiff.streamed(directory: log.path, a: .handz, b: other, asOf: at, partitions: partitions))
            let expected = try Self.fromSnapshots(log, .handz, other, at: at, partitions: 1)
            #expect(streamed == expected, "seed \(seed) round \(round): \(name) at \(at), \(partitions) partitions")
            // The other way round too (B's users and transfers as A's).
            let back = try #require(try RuleDiff.streamed(directory: log.path, a: other, b: .handz, asOf: at, partitions: partitions))
            #expect(back == (try Self.fromSnapshots(log, other, .handz, at: at, partitions: 2)), "seed \(seed) round \(round): back")
            differing += streamed.count
        }
        #expect(differing > 0, "seed \(seed): the rules change someone")
    }

    /// The transfer story, and a subscription handed over before it lapses: kim transfers her
    /// subscription to lee on 20 February, it is due on 1 March at 10:00 and never renewed, so at
    /// noon lee is in its unverified grace under 24 hours and free under 1 hour: only lee's plan
    /// differs, and only once the transfer is handed to him.
    static let story = KeptProjections.transferStory + [
        #"{"id":"k1","type":"purchase","user":"kim","time":"2026-02-01T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"tk","expires":"2026-03-01T10:00:00Z","price":"9.99","currency":"USD"}}"#,
        #"{"id":"k2","type":"transfer","user":"kim","time":"2026-02-20T10:00:00Z","data":{"to":"lee"}}"#,
    ]

    @Test func aSubscriptionHandedOverBeforeItLapsesMakesOnlyItsRecipientDiffer() throws {
        let log = try TestLog(Self.story)
        _ = try Replay.buildEventCache(directory: log.path)
        let streamed = try #require(try RuleDiff.streamed(directory: log.path, a: .handz, b: Self.rules[1].1,
                                                          asOf: Timestamp.parse("2026-03-01T12:00:00Z")!, partitions: 2))
        #expect(streamed.map(\.user) == ["lee"])
        #expect(streamed.first?.a.planState == .proGrace && streamed.first?.b.planState == .free)
    }

    @Test func theTransferStoryGivesWhatTwoWholeSnapshotsGiveEveryThirteenHours() throws {
        let log = try TestLog(Self.story)
        _ = try Replay.buildEventCache(directory: log.path)
        var day = Timestamp.parse("2025-12-31T00:00:00Z")!
        var differing = 0
        while day < Timestamp.parse("2026-03-15T00:00:00Z")! {
            for (name, other) in Self.rules {
                let streamed = try #require(try RuleDiff.streamed(directory: log.path, a: .handz, b: other, asOf: day, partitions: 2))
                #expect(streamed == (try Self.fromSnapshots(log, .handz, other, at: day, partitions: 1)), "\(name) at \(day)")
                differing += streamed.count
            }
            day = day + .hours(13)
        }
        #expect(differing > 0)
    }
}
