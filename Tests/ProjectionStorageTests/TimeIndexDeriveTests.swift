import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage
import Platform

/// A developer changes a rule and asks again: the index under the new profile is derived from the
/// one kept under the old (TimeIndex+Derive.swift) by walking only the users the change reaches,
/// and holds the step functions a build under the new profile holds; what cannot be trusted to
/// go with the log and this code is never derived from.
@Suite struct TimeIndexDerivations {
    static func profile(_ edit: (inout Profile) -> Void) -> Profile {
        var p = Profile.handz
        edit(&p)
        return p
    }

    /// Changes a developer makes, each narrower than "everyone".
    static let changes: [(String, Profile)] = [
        ("billing grace 7 days", profile { $0.billingGraceDays = 7 }),
        ("trial reminder 24 h", profile { $0.trialReminderLeadHours = 24 }),
        ("a yearly period", profile { $0.products[0].periodMonths = 12 }),
        ("a new price", profile { $0.products[0].price = "12.49"; $0.products[0].currency = "EUR" }),
        ("another group", profile { $0.products[0].group = "handz.other" }),
        ("no catalog", profile { $0.products = [] }),
        ("a rename", profile { $0.name = "what-if"; $0.trialEndingCopy = "Soon." }),
        ("grace and period", profile { $0.billingGraceDays = 1; $0.products[0].periodMonths = 3 }),
    ]

    /// The steps of `index` (overlay merged) equal those of a build of the log under `profile`.
    static func expectSameAsBuild(_ index: TimeIndex, _ store: ProjectionStore, _ what: String) throws {
        let built = try TimeIndex.build(directory: store.logDirectory, profile: store.profile, fingerprint: store.timeIndexFingerprint, partitions: 2)
        #expect(index.fingerprint == built.fingerprint && index.position == built.position && index.hash == built.hash, "\(what): what it names")
        #expect(index.profileJSON == store.profile.encodedJSON() && index.firstEvent == built.firstEvent, "\(what): the profile it names")
        let a = try index.compacted().memoryBase(), b = try built.memoryBase()
        #expect(a.keys == b.keys, "\(what): the keys")
        if a.keys == b.keys {
            let differing = a.keys.indices.first { k in
                let (x, y) = (a.starts[k]..<a.starts[k + 1], b.starts[k]..<b.starts[k + 1])
                return a.times[x] != b.times[y] || a.sums[x] != b.sums[y]
            }
            #expect(differing == nil, "\(what): the steps of \(differing.map { "\(a.keys[$0])" } ?? "") differ from a build's")
        }
    }

    /// A random log (the population, then random lines with transfers, refunds, pauses, sandbox,
    /// product changes, late and duplicate lines) and its index kept under `handz`.
    static func keptLog(seed: UInt64, sandbox: Bool = false) throws -> (TestLog, ProjectionStore, Int) {
        var rng = SplitMix64(seed: seed)
        let base = Array(ReportSummaries.base.prefix(300 + Int(rng.next() % 200)))
        let log = try TestLog(base)
        try ReportSummaries.append(TimeIndexUpdates.lines(&rng, round: 0, count: 120, sent: base), to: log)
        var store = ProjectionStore(logDirectory: log.path, profile: .handz)
        store.timeIndexWithSandbox = sandbox
        #expect(try store.refreshedTimeIndex().refresh.rebuilt, "seed \(seed): the kept index is built")
        let users = Set(try EventLog(directory: log.path, access: .read).records(from: 1).map(\.stream)).count
        return (log, store, users)
    }

    @Test func anIndexDerivedUnderEachNarrowChangeHoldsTheStepsABuildUnderItHolds() throws {
        for seed: UInt64 in [2, 17] {
            print("TimeIndexDerivations seed \(seed)")
            let (log, _, users) = try Self.keptLog(seed: seed)
            for (name, profile) in Self.changes {
                let what = "seed \(seed), \(name)"
                var store = ProjectionStore(logDirectory: log.path, profile: profile)
                store.derivationShare = 1   // derived however many events the users it reaches hold
                let (index, refresh) = try store.refreshedTimeIndex()
                let derivation = try #require(refresh.derivation, "\(what): derived, not built")
                #expect(!refresh.rebuilt && refresh.wrote && derivation.from == "handz", "\(what): derived from handz and saved")
                #expect(derivation.usersWalked < users, "\(what): walked \(derivation.usersWalked) of \(users) users")
                if name == "a rename" { #expect(derivation.usersWalked == 0, "\(what): a rename reaches no one") }
                if name == "billing grace 7 days" { #expect(derivation.usersSettledEarly > 0, "\(what): some walks settle before the end") }
                if name == "a yearly period" { #expect(derivation.usersSettledEarly == 0, "\(what): the catalog is read at every sample") }
                try Self.expectSameAsBuild(index, store, what)
                // Saved as a base of its own: served as stored, and it answers as a full fold does.
                let (again, served) = try store.refreshedTimeIndex()
                #expect(served == .init() && again.fingerprint == index.fingerprint, "\(what): served as stored")
                let at = Timestamp.parse("2026-03-15T00:00:00Z")!
                let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: profile, asOf: at))
                #expect(try again.counts(at: at) == full.counts() && again.revenue(at: at, profile: profile) == full.revenue(), "\(what): as a fold")
            }
        }
    }

    @Test func aChangeWhoseUsersHoldMoreThanTheShareOfEventsIsBuiltAndOneThatReachesNobodyIsDerived() throws {
        let (log, _, _) = try Self.keptLog(seed: 23)
        for (name, profile) in [Self.changes[0], Self.changes[2], Self.changes[6]] {
            var store = ProjectionStore(logDirectory: log.path, profile: profile)
            store.derivationShare = 0   // any event reached is too many
            let (index, refresh) = try store.refreshedTimeIndex()
            #expect(refresh.rebuilt == (name != "a rename") && (refresh.derivation != nil) == (name == "a rename"), "\(name)")
            try Self.expectSameAsBuild(index, store, name)
            try DurableFile.remove(path: store.timeIndexPath)
        }
    }

    @Test func aDerivedIndexIsUpdatedAfterNewRecordsAsABuiltOneIs() throws {
        let (log, _, _) = try Self.keptLog(seed: 41)
        let grace = Self.changes[0].1
        var store = ProjectionStore(logDirectory: log.path, profile: grace)
        store.derivationShare = 1
        #expect(try store.refreshedTimeIndex().refresh.derivation != nil)
        var rng = SplitMix64(seed: 41)
        try ReportSummaries.append(TimeIndexUpdates.lines(&rng, round: 1, count: 30, sent: []), to: log)
        let (index, refresh) = try store.refreshedTimeIndex()
        #expect(refresh.update != nil && refresh.derivation == nil && !refresh.rebuilt, "its own base is brought up")
        try Self.expectSameAsBuild(index, store, "after appends")
        // The kept handz index alone, behind the head now: it is brought up first, then derived from.
        try DurableFile.remove(path: store.timeIndexPath)
        var trial = ProjectionStore(logDirectory: log.path, profile: Self.changes[1].1)
        trial.derivationShare = 1
        let (derived, derivedRefresh) = try trial.refreshedTimeIndex()
        #expect(derivedRefresh.derivation != nil)
        try Self.expectSameAsBuild(derived, trial, "derived from a kept index brought up")
    }

    @Test func theIndexThatCountsSandboxEventsIsDerivedFromTheOneThatDoesToo() throws {
        let (log, _, _) = try Self.keptLog(seed: 9, sandbox: true)
        var store = ProjectionStore(logDirectory: log.path, profile: Self.changes[2].1)
        store.timeIndexWithSandbox = true
        store.derivationShare = 1
        let (index, refresh) = try store.refreshedTimeIndex()
        #expect(refresh.derivation != nil)
        try Self.expectSameAsBuild(index, store, "with sandbox")
        // Without sandbox events there is no kept index to derive from: built.
        let plain = ProjectionStore(logDirectory: log.path, profile: Self.changes[2].1)
        #expect(try plain.refreshedTimeIndex().refresh.rebuilt)
    }

    @Test func aChangeThatReachesEveryoneIsBuiltNotDerived() throws {
        let (log, _, _) = try Self.keptLog(seed: 5)
        for profile in [Self.profile { $0.unverifiedGraceHours = 48 }, Self.profile { $0.commissionPercent = 30 }] {
            let store = ProjectionStore(logDirectory: log.path, profile: profile)
            let (index, refresh) = try store.refreshedTimeIndex()
            #expect(refresh.rebuilt && refresh.derivation == nil)
            try Self.expectSameAsBuild(index, store, "everyone")
        }
    }

    @Test func aKeptIndexOfOtherRulesCodeOfAnotherAppOrNotWholeIsNeverDerivedFrom() throws {
        let (log, kept, _) = try Self.keptLog(seed: 13)
        let bytes = try #require(try DurableFile.read(path: kept.timeIndexPath))
        var grace = ProjectionStore(logDirectory: log.path, profile: Self.changes[0].1)
        grace.derivationShare = 1
        func derives() throws -> Bool {
            try? DurableFile.remove(path: grace.timeIndexPath)
            let (index, refresh) = try grace.refreshedTimeIndex()
            try Self.expectSameAsBuild(index, grace, "derived or built")
            return refresh.derivation != nil
        }
        #expect(try derives(), "the kept index as written")
        // Built by other rules code: its fingerprint is not the one this code gives its profile.
        var other = kept
        other.rulesFingerprint = "other rules code"
        try? DurableFile.remove(path: kept.timeIndexPath)
        _ = try other.refreshedTimeIndex()
        try FileManager.default.moveItem(atPath: other.timeIndexPath, toPath: kept.timeIndexPath)
        #expect(try !derives(), "a file of other rules code under the kept name")
        // Another app's profile in a file of its own.
        let mirror = ProjectionStore(logDirectory: log.path, profile: .mirrormate)
        try? DurableFile.remove(path: kept.timeIndexPath)
        _ = try mirror.refreshedTimeIndex()
        #expect(try !derives(), "only another app's index is kept")
        try? DurableFile.remove(path: mirror.timeIndexPath)
        // Damage anywhere in the table (the profile it names included), or a truncated file.
        let table = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        for offset in [0, 12, 30, 12 + table / 2, 12 + table - 1] {
            var damaged = bytes
            damaged[offset] ^= 0x10
            ReportSummaries.writeFile(kept.timeIndexPath, damaged)
            #expect(try !derives(), "a bit flipped at \(offset)")
        }
        ReportSummaries.writeFile(kept.timeIndexPath, Array(bytes.prefix(bytes.count - 1)))
        #expect(try !derives(), "a truncated file")
        ReportSummaries.writeFile(kept.timeIndexPath, bytes)
        #expect(try derives(), "whole again")
    }
}
