import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections
@testable import ProjectionStorage
import Platform

/// After new records the time index walks only the users they touch (and the recipients of their
/// transfers) into its overlay (TimeIndex+Update.swift): the result answers as a full fold does
/// and holds the same step functions as a fresh build; a damaged or foreign overlay is never served.
@Suite struct TimeIndexUpdates {
    /// Random lines: the summary tests' (views, taps, purchases, billing issues, transfers, refunds,
    /// expirations, resent lines) and the time index tests' (renewals, pauses, cancellations,
    /// refund reversals, sandbox, product changes), all at random times (late ones included).
    static func lines(_ rng: inout SplitMix64, round: Int, count: Int, sent: [String]) -> [String] {
        let half = max(1, count / 2)
        return ReportSummaries.randomEvents(&rng, round: round, count: half, sent: sent)
            + TimeIndexes.moreEvents(&rng, round: round, count: count - half)
    }

    /// The index equals a fresh build of the same log: the same step functions once the overlay is merged.
    static func expectSameAsFreshBuild(_ index: TimeIndex, _ store: ProjectionStore, _ what: String) throws {
        let fresh = try TimeIndex.build(directory: store.logDirectory, profile: .handz, fingerprint: store.fingerprint, partitions: 2)
        #expect(index.position == fresh.position && index.hash == fresh.hash, "\(what): head")
        #expect(index.firstEvent == fresh.firstEvent, "\(what): first event")
        let merged = try index.compacted().memoryBase(), built = try fresh.memoryBase()
        // The first key whose steps differ (the whole tables are too long to print).
        var differing: String?
        if merged != built {
            differing = "a key missing"
            for k in merged.keys.indices {
                let (a, b) = (merged.starts[k]..<merged.starts[k + 1], k < built.keys.count ? built.starts[k]..<built.starts[k + 1] : 0..<0)
                if k >= built.keys.count || merged.keys[k] != built.keys[k] || merged.times[a] != built.times[b] || merged.sums[a] != built.sums[b] {
                    differing = "\(merged.keys[k])"
                    break
                }
            }
        }
        #expect(differing == nil, "\(what): the step functions differ from a fresh build's")
    }

    @Test func randomAppendsWalkOnlyTheTouchedUsersAndAnswerAsAFullFoldAndAsAFreshBuild() throws {
        for seed: UInt64 in [5, 23, 71] {
            var rng = SplitMix64(seed: seed)
            let base = Array(ReportSummaries.base.prefix(500))
            let log = try TestLog(base)
            try ReportSummaries.append(Self.lines(&rng, round: 0, count: 80, sent: base), to: log)
            let store = ProjectionStore(logDirectory: log.path, profile: .handz)
            #expect(try store.refreshedTimeIndex().refresh.rebuilt, "seed \(seed): the first query builds")
            var sent = base
            var compactions = 0, overlays = 0
            for round in 1...6 {
                let before = try EventLog(directory: log.path, access: .read).head.position
                // Mostly a few records (the overlay grows), sometimes many; now and then merged at once.
                let count = rng.next() % 4 == 0 ? 40 + Int(rng.next() % 60) : 1 + Int(rng.next() % 8)
                let lines = Self.lines(&rng, round: round, count: count, sent: sent)
                try ReportSummaries.append(lines, to: log)
                sent += lines
                let after = try EventLog(directory: log.path, access: .read).head.position
                // (The last round merges if none did: every seed checks both the overlay and the merge.)
                let merge = (round == 6 && compactions == 0) || rng.next() % 3 == 0
                let (index, refresh) = try store.refreshedTimeIndex(overlayLimit: merge ? 0 : nil)
                let what = "seed \(seed) round \(round)"
                guard after > before else {
                    #expect(refresh == .init(), "\(what): nothing appended, served as stored")
                    continue
                }
                let update = try #require(refresh.update, "\(what): an earlier head is updated, not rebuilt")
                #expect(!refresh.rebuilt && refresh.wrote, "\(what): updated and written")
                #expect(update.recordsRead == Int(after - before), "\(what): reads only the records appended")
                let users = Set(try EventLog(directory: log.path, access: .read).records(from: before + 1).map(\.stream))
                #expect(update.usersWalked >= users.count && update.usersWalked < 200, "\(what): walked \(update.usersWalked) users for \(users.count) touched")
                if merge { #expect(update.compacted, "\(what): an overlay over the limit is merged") }
                if update.compacted {
                    compactions += 1
                    #expect(!FileManager.default.fileExists(atPath: store.timeIndexOverlayPath), "\(what): the merged overlay is removed")
                } else {
                    overlays += 1
                    #expect(FileManager.default.fileExists(atPath: store.timeIndexOverlayPath), "\(what): the overlay is written")
                }
                try TimeIndexes.expectSameAsFold(index, log.path, seed: seed, round: round, &rng)
                try Self.expectSameAsFreshBuild(index, store, what)
                // Read back as stored: the same index, no work.
                let (again, quiet) = try store.refreshedTimeIndex()
                #expect(quiet == .init(), "\(what): the stored base and overlay are served for the same head")
                let (readBack, kept) = (try again.compacted().memoryBase(), try index.compacted().memoryBase())
                #expect(readBack == kept && again.firstEvent == index.firstEvent, "\(what): read back")
            }
            #expect(overlays > 0 && compactions > 0, "seed \(seed): \(overlays) rounds kept an overlay, \(compactions) merged it")
        }
    }

    /// A log with a base and an overlay stored (an append after the first build); returns the overlay's bytes.
    static func withOverlay() throws -> (TestLog, ProjectionStore, [UInt8]) {
        let log = try TestLog(Array(ReportSummaries.base.prefix(300)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        #expect(try store.refreshedTimeIndex().refresh.rebuilt)
        try ReportSummaries.append(Array(ReportSummaries.base.dropFirst(300).prefix(12)), to: log)
        #expect(try store.refreshedTimeIndex().refresh.update?.compacted == false)
        return (log, store, try #require(try DurableFile.read(path: store.timeIndexOverlayPath)))
    }

    /// Serves base and overlay as stored (true), or updates the base again (false), never rebuilds;
    /// either way the answer equals a full fold.
    static func overlayServed(_ store: ProjectionStore, _ path: String, _ what: String) throws -> Bool {
        let (index, refresh) = try store.refreshedTimeIndex()
        #expect(!refresh.rebuilt, "\(what): the base is whole, not rebuilt")
        let at = Timestamp.parse("2026-03-15T00:00:00Z")!
        let full = try Replay.run(directory: path, options: ReplayOptions(profile: .handz, asOf: at))
        let (counts, funnel, revenue) = (try index.counts(at: at), try index.funnel(at: at), try index.revenue(at: at, profile: .handz))
        #expect(counts == full.counts() && funnel == full.funnel() && revenue == full.revenue(), "\(what)")
        return refresh.update == nil
    }

    @Test func aBitFlipAnywhereOrATruncationAtAnyByteOfTheOverlaysHeaderIsNeverServed() throws {
        let (log, store, bytes) = try Self.withOverlay()
        let step = max(1, bytes.count / 80)
        for offset in Array(stride(from: 0, to: bytes.count, by: step)) + [bytes.count - 1] {
            var damaged = bytes
            damaged[offset] ^= 0x10
            ReportSummaries.writeFile(store.timeIndexOverlayPath, damaged)
            #expect(try !Self.overlayServed(store, log.path, "bit flip at \(offset)"), "bit flip at \(offset)")
        }
        // Magic, version, fingerprint, head, hash, base head and hash, first event, magnitude, key table.
        let header = 8 + 1 + 17 + 8 + 32 + 8 + 32 + 9 + 8 + 120
        for length in 0..<min(header, bytes.count) {
            ReportSummaries.writeFile(store.timeIndexOverlayPath, Array(bytes.prefix(length)))
            #expect(try !Self.overlayServed(store, log.path, "truncated to \(length)"), "truncated to \(length)")
        }
        ReportSummaries.writeFile(store.timeIndexOverlayPath, bytes)
        #expect(try Self.overlayServed(store, log.path, "whole again"))
    }

    @Test func anOverlayOfAnotherLogOfALaterHeadOrOfAnotherBaseIsNeverServed() throws {
        let (log, store, bytes) = try Self.withOverlay()
        // Another log's overlay (other events, other chain hashes).
        let other = try TestLog(Array(ReportSummaries.base.dropFirst(400).prefix(300)))
        let otherStore = ProjectionStore(logDirectory: other.path, profile: .handz)
        #expect(try otherStore.refreshedTimeIndex().refresh.rebuilt)
        try ReportSummaries.append(Array(ReportSummaries.base.dropFirst(700).prefix(12)), to: other)
        #expect(try otherStore.refreshedTimeIndex().refresh.update != nil)
        ReportSummaries.writeFile(store.timeIndexOverlayPath, try #require(try DurableFile.read(path: otherStore.timeIndexOverlayPath)))
        #expect(try !Self.overlayServed(store, log.path, "another log's overlay"))
        // An overlay of a later head: a copy of the folder (same records, same base) appended to and brought up.
        let copy = try TestLog(copyOf: log)
        try ReportSummaries.append(Array(ReportSummaries.base.dropFirst(312).prefix(10)), to: copy)
        let copyStore = ProjectionStore(logDirectory: copy.path, profile: .handz)
        #expect(try copyStore.refreshedTimeIndex().refresh.update?.recordsRead ?? 0 > 0)
        ReportSummaries.writeFile(store.timeIndexOverlayPath, try #require(try DurableFile.read(path: copyStore.timeIndexOverlayPath)))
        #expect(try !Self.overlayServed(store, log.path, "an overlay of a later head"))
        // An overlay of the base before a merge: the merged base alone answers.
        try ReportSummaries.append(Array(ReportSummaries.base.dropFirst(312).prefix(3)), to: log)
        #expect(try store.refreshedTimeIndex(overlayLimit: 0).refresh.update?.compacted == true)
        #expect(!FileManager.default.fileExists(atPath: store.timeIndexOverlayPath))
        ReportSummaries.writeFile(store.timeIndexOverlayPath, bytes)
        #expect(try Self.overlayServed(store, log.path, "an overlay of the base before the merge"))
        #expect(try !store.refreshedTimeIndex().index.hasOverlay, "the old overlay is not put on the merged base")
    }
}
