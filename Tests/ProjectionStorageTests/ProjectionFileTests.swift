import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@testable import Projections
@testable import ProjectionStorage
import Platform

/// The kept projection's binary file: every field of every fold reads back equal, in any chunk
/// size, and a damaged or short file is never trusted.
@Suite struct ProjectionFiles {
    /// Folds with every part filled somewhere: the sample logs of the five apps (transfers,
    /// credits, sandbox, grace, notifications) and a generated population, as of a mid-log instant.
    static func folds() throws -> [(Profile, [UserFold])] {
        var out: [(Profile, [UserFold])] = []
        let samples: [(String, Profile)] = [("handz", .handz), ("mirrormate", .mirrormate), ("tomo", .tomo), ("howru", .howru), ("sportstime", .sportstime)]
        for (name, profile) in samples {
            let text = String(decoding: FileManager.default.contents(atPath: repositoryRoot + "/events/" + name + ".jsonl")!, as: UTF8.self)
            let log = try TestLog(text.split(separator: "\n").map(String.init), profile: profile)
            out.append((profile, Array(try log.replay(at: "2026-02-06T12:00:00Z", profile: profile).users.folds)))
        }
        out.append((.handz, Array(try TestLog(story).replay(at: "2026-02-03T00:00:00Z").users.folds)))
        // Two SMS packs of different sizes: the consumables' stored order (by product) is pinned too.
        let packs = try TestLog([
            #"{"id":"pk-1","type":"consumable_purchase","user":"pat","time":"2026-01-08T09:30:00Z","data":{"product":"howru_sms_50","transaction":"pk-t1","quantity":50,"price":"4.99","currency":"USD"}}"#,
            #"{"id":"pk-2","type":"consumable_purchase","user":"pat","time":"2026-01-09T09:30:00Z","data":{"product":"howru_sms_20","transaction":"pk-t2","quantity":20,"price":"2.99","currency":"USD"}}"#,
        ], profile: .howru)
        out.append((.howru, Array(try packs.replay(at: "2026-02-01T00:00:00Z", profile: .howru).users.folds)))
        let generated = try TestLog(PopulationGenerator(profile: .handz, users: 200, seed: 5).events().map { EventCodec.encode($0) })
        out.append((.handz, Array(try generated.replay(at: "2026-04-01T00:00:00Z").users.folds)))
        return out
    }

    static func store(_ folds: [UserFold], profile: Profile, in log: TestLog, partitions: Int = 2) throws -> ProjectionStore {
        let store = ProjectionStore(logDirectory: log.path, profile: profile)
        var users = UserPartitions(Array(repeating: UserTable<UserFold>(), count: partitions))
        for f in folds { users[f.user] = f }
        try store.write(.init(codeVersion: ProjectionStore.codeVersion, fingerprint: store.fingerprint, position: 7, hash: .zero, users: users))
        return store
    }

    /// The bytes of the folds of the sample logs and a generated population, sorted by user, as
    /// written when the format was last changed: a change of `UserFold.code` must come with a new
    /// `ProjectionStore.codeVersion` and a new pin here.
    static let frozenFoldBytes = "7e43da8fd772cf95e146ca50a619bab0a63b9b69ea9fad640edff3712fc69f22"

    @Test func theStoredFormOfAFoldIsTheFrozenOne() throws {
        var bytes: [UInt8] = []
        for (_, folds) in try Self.folds() {
            var w = ProjectionWriter()
            for f in folds.sorted(by: { $0.user < $1.user }) { w.fold(f) }
            bytes += w.bytes
        }
        #expect(SHA256.hash(bytes).description == Self.frozenFoldBytes, "\(bytes.count) bytes")
    }

    @Test func everyFoldReadsBackEqualInAnyChunkSize() throws {
        var seen = (transfer: 0, sandbox: 0, credits: 0, packs: 0, notifications: 0, charges: 0, contexts: 0, refunded: 0, late: 0)
        for (profile, folds) in try Self.folds() {
            let log = try TestLog([])
            let store = try Self.store(folds, profile: profile, in: log)
            defer { withExtendedLifetime(log) {} }
            for chunk in [1 << 20, 64, 7] {
                let stored = try #require(try store.read(chunk: chunk))
                #expect(stored.position == 7 && stored.fingerprint == store.fingerprint && stored.users.tables.count == 2)
                #expect(stored.users.count == folds.count)
                for f in folds { #expect(stored.users[f.user] == f, "\(profile.name) \(f.user) chunk \(chunk)") }
            }
            for f in folds {
                if f.transferOut != nil { seen.transfer += 1 }
                if f.state.sandbox != nil { seen.sandbox += 1 }
                if !f.state.consumables.isEmpty { seen.credits += 1 }
                if f.state.consumables.count >= 2 { seen.packs += 1 }
                if f.notifications.contains(where: \.cancelled) { seen.notifications += 1 }
                if !f.books.charges.isEmpty { seen.charges += 1 }
                if !f.funnel.byContext.isEmpty { seen.contexts += 1 }
                if !f.books.refunded.isEmpty { seen.refunded += 1 }
                if f.trialStartedAt != nil { seen.late += 1 }
            }
        }
        // The corpus reaches every optional part at least once.
        #expect(seen.transfer > 0 && seen.sandbox > 0 && seen.credits > 0 && seen.packs > 0 && seen.notifications > 0)
        #expect(seen.charges > 0 && seen.contexts > 0 && seen.refunded > 0 && seen.late > 0)
    }

    @Test func aFlippedBitOrAShortFileIsNeverTrusted() throws {
        let (profile, folds) = try Self.folds()[0]
        let log = try TestLog([])
        defer { withExtendedLifetime(log) {} }
        let store = try Self.store(folds, profile: profile, in: log)
        let good = try #require(try DurableFile.read(path: store.path))
        var rng = TestKit.SplitMix64(seed: 42)
        for _ in 0..<300 {
            var bad = good
            let at = Int.random(in: 0..<bad.count, using: &rng)
            bad[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            try DurableFile.replace(path: store.path, with: bad)
            #expect(throws: (any Error).self, "bit flipped at \(at)") { try store.read() }
        }
        for length in [0, 3, 8, good.count / 3, good.count - 5, good.count - 1] {
            try DurableFile.replace(path: store.path, with: Array(good.prefix(length)))
            #expect(throws: (any Error).self, "cut to \(length)") { try store.read() }
        }
        try DurableFile.replace(path: store.path, with: good + [0])
        #expect(throws: (any Error).self, "a byte too many") { try store.read() }
        try DurableFile.replace(path: store.path, with: good)
        #expect(try store.read()?.users.count == folds.count)
    }
}
