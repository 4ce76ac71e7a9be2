import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage
import Platform

/// The time index (TimeIndex*.swift) answers `counts`, `funnel` and `revenue` at any instant,
/// `counts` in any window and as any series, exactly as a full fold does, over random logs and
/// after random appends; and it is rebuilt, never served, when its file does not match the log.
@Suite struct TimeIndexes {
    static let start = Timestamp.parse("2026-01-01T00:00:00Z")!

    /// Events `ReportSummaries.randomEvents` does not make: renewals, pauses, cancellations and
    /// uncancellations, refund reversals, sandbox purchases and renewals, immediate product changes charged at once,
    /// temporary entitlement grants (alone, or followed by the purchase they bridge).
    static func moreEvents(_ rng: inout SplitMix64, round: Int, count: Int) -> [String] {
        func pick(_ n: UInt64) -> Int { Int(rng.next() % n) }
        func user() -> String { pick(3) == 0 ? "n_\(pick(40))" : "u_\(pick(150))" }
        var out: [String] = []
        for i in 0..<count {
            let time = start + .init(nanoseconds: Int64(pick(200 * 86_400)) * 1_000_000_000)
            let t = time.description, id = "m\(round)_\(i)", u = user()
            let expires = (time + .days(30)).description
            switch pick(9) {
            case 0:
                out.append(#"{"id":"\#(id)","type":"renewal","user":"\#(u)","time":"\#(t)","data":{"product":"handz.pro.monthly","transaction":"\#(id)_t","expires":"\#(expires)","price":"9.99","currency":"USD"}}"#)
            case 1:
                out.append(#"{"id":"\#(id)","type":"pause","user":"\#(u)","time":"\#(t)","data":{"resumesAt":"\#(expires)"}}"#)
            case 2:
                out.append(#"{"id":"\#(id)","type":"cancellation","user":"\#(u)","time":"\#(t)","data":{}}"#)
            case 3:
                out.append(#"{"id":"\#(id)","type":"uncancellation","user":"\#(u)","time":"\#(t)","data":{}}"#)
            case 4:
                out.append(#"{"id":"\#(id)","type":"refund_reversed","user":"\#(u)","time":"\#(t)","data":{"transaction":"u_\#(pick(150))_t1"}}"#)
            case 5:
                let trial = pick(2) == 0
                out.append(#"{"id":"\#(id)","type":"purchase","user":"\#(u)","time":"\#(t)","data":{"product":"handz.pro.monthly","transaction":"\#(id)_s","expires":"\#(expires)",\#(trial ? #""offer":"free_trial","price":"0.00""# : #""price":"9.99""#),"currency":"USD","environment":"sandbox"}}"#)
            case 6:
                out.append(#"{"id":"\#(id)","type":"product_change","user":"\#(u)","time":"\#(t)","data":{"product":"handz.pro.monthly","effective":"immediate","transaction":"\#(id)_c","price":"4.50","currency":"EUR"}}"#)
            case 7:
                let ends = (time + .days(1)).description
                out.append(#"{"id":"\#(id)","type":"purchase","user":"\#(u)","time":"\#(t)","data":{"product":"handz.pro.monthly","transaction":"\#(id)_g","expires":"\#(ends)","temporaryGrant":true}}"#)
                if pick(2) == 0 {
                    let confirmed = (time + .init(nanoseconds: Int64(pick(3 * 3_600)) * 1_000_000_000)).description
                    out.append(#"{"id":"\#(id)_p","type":"purchase","user":"\#(u)","time":"\#(confirmed)","data":{"product":"handz.pro.monthly","transaction":"\#(id)_g","expires":"\#(expires)","price":"9.99","currency":"USD"}}"#)
                }
            default:
                out.append(#"{"id":"\#(id)","type":"paywall_viewed","user":"\#(u)","time":"\#(t)","data":{"context":"c\#(pick(2))"}}"#)
            }
        }
        return out
    }

    static func randomInstant(_ rng: inout SplitMix64) -> Timestamp {
        // From a month before the first event to past the last; some on whole days (bucket bounds, expiries).
        let seconds = Int64(rng.next() % (260 * 86_400)) - 30 * 86_400
        return start + .init(nanoseconds: (rng.next() % 3 == 0 ? seconds / 86_400 * 86_400 : seconds) * 1_000_000_000)
    }

    /// The index's reports as of random instants, windows and series equal a full fold's.
    /// With `sandbox`, the index that counts sandbox events too, against folds with `includeSandbox`.
    static func expectSameAsFold(_ index: TimeIndex, _ path: String, seed: UInt64, round: Int, sandbox: Bool = false, _ rng: inout SplitMix64) throws {
        func options(_ at: Timestamp) -> ReplayOptions {
            var o = ReplayOptions(profile: .handz, asOf: at)
            o.includeSandbox = sandbox
            return o
        }
        for _ in 0..<12 {
            let at = randomInstant(&rng)
            let full = try Replay.run(directory: path, options: options(at))
            #expect(try index.counts(at: at) == full.counts(), "seed \(seed) round \(round): counts at \(at)")
            #expect(try index.funnel(at: at) == full.funnel(), "seed \(seed) round \(round): funnel at \(at)")
            #expect(try index.revenue(at: at, profile: .handz) == full.revenue(), "seed \(seed) round \(round): revenue at \(at)")
            #expect(try index.notificationSummary(at: at) == full.notificationSummary(), "seed \(seed) round \(round): notifications at \(at)")
            // A window [from, to), as `counts --from --to` asks it (as of the window's end), or open-ended as of --at.
            let a = randomInstant(&rng), b = randomInstant(&rng)
            var o = options(max(a, b))
            o.from = min(a, b)
            if rng.next() % 3 != 0 { o.to = max(a, b) }
            let windowed = try Replay.run(directory: path, options: o)
            #expect(try index.counts(at: o.asOf, from: o.from, to: o.to) == windowed.counts(),
                    "seed \(seed) round \(round): counts from \(o.from!) to \(o.to.map(\.description) ?? "-") as of \(o.asOf)")
            try expectSameWindows(index, path, a, b, rng.next(), sandbox: sandbox, "seed \(seed) round \(round)")
        }
        for by in SeriesGranularity.allCases {
            let end = randomInstant(&rng)
            var o = options(end)
            o.to = end
            if rng.next() % 2 == 0 {
                // A start a whole number of days before the end, or the midnight before that.
                let from = end - .days(Int(rng.next() % 90) + 1)
                o.from = rng.next() % 2 == 0 ? from : SeriesBuckets.midnight(SeriesBuckets.day(of: from))
            }
            let totals = try SeriesReplay.run(directory: path, options: o)
            #expect(index.firstEvent(upTo: end) == totals.firstEvent, "seed \(seed) round \(round): first event up to \(end)")
            guard let series = totals.series(by: by, from: o.from ?? totals.firstEvent),
                  let buckets = SeriesBuckets(by: by, from: min(o.from ?? totals.firstEvent ?? end, end), to: end) else { continue }
            #expect(try index.countsSeries(buckets) == series.rows.map(\.counts), "seed \(seed) round \(round): counts by \(by) to \(end)")
            // Revenue, the funnel and the retention cohorts (restarted at a start) per bucket; a start within a day folds (nil).
            let what = "seed \(seed) round \(round): series by \(by) from \(o.from.map(\.description) ?? "-") to \(end)"
            let indexed = try index.series(buckets, from: o.from, funnel: true, profile: .handz)
            #expect((indexed == nil) == (o.from.map { TimeIndex.windowDay($0) == nil } ?? false), "\(what): read unless the start is within a day")
            if let indexed {
                #expect(indexed.rows.map(\.revenue) == series.rows.map(\.revenue), "\(what): revenue")
                #expect(indexed.rows.map(\.funnel) == series.rows.map(\.funnel), "\(what): funnel")
                #expect(indexed.rows.map(\.retention) == series.rows.map(\.retention), "\(what): retention")
            }
        }
    }

    /// The funnel of the window between instants `a` and `b` (open-ended or not, as `bits` picks;
    /// the start a midnight, or not) as a windowed replay gives it, and the revenue of the window
    /// (empty when it ends before it starts) as a series pass gives it.
    static func expectSameWindows(_ index: TimeIndex, _ path: String, _ a: Timestamp, _ b: Timestamp, _ bits: UInt64, sandbox: Bool, _ what: String) throws {
        let day: Int64 = 86_400_000_000_000
        var from = min(a, b)
        if bits & 1 == 0 { from = Timestamp(nanoseconds: from.nanoseconds - ((from.nanoseconds % day) + day) % day) }
        var o = ReplayOptions(profile: .handz, asOf: max(a, b))
        o.includeSandbox = sandbox
        o.from = bits & 2 == 0 ? from : nil
        if bits & 4 == 0 { o.to = max(a, b) }
        // Now and then as of an instant before the window's start: none of its events yet.
        if bits & 16 != 0, bits & 32 != 0, let start = o.from { o.asOf = Timestamp(nanoseconds: start.nanoseconds - 1 - Int64((bits >> 8) % UInt64(day))) }
        let midnight = o.from.map { TimeIndex.windowDay($0) != nil } ?? true
        let funnel = try index.funnel(at: o.asOf, from: o.from, to: o.to)
        #expect((funnel != nil) == midnight, "\(what): a window from \(o.from.map(\.description) ?? "-") is read unless within a day")
        if let funnel {
            #expect(funnel == (try Replay.run(directory: path, options: o).funnel()),
                    "\(what): funnel from \(o.from.map(\.description) ?? "-") to \(o.to.map(\.description) ?? "-") as of \(o.asOf)")
        }
        // `revenue --from/--to`: a series pass as of the window's end, the start possibly after it.
        var r = ReplayOptions(profile: .handz, asOf: bits & 8 == 0 ? max(a, b) : min(a, b))
        r.includeSandbox = sandbox
        r.from = o.from
        r.to = r.asOf
        if let revenue = try index.revenue(from: r.from, to: r.asOf, profile: .handz) {
            #expect(revenue == (try SeriesReplay.run(directory: path, options: r).windowRevenue()),
                    "\(what): revenue from \(r.from.map(\.description) ?? "-") to \(r.asOf)")
        } else {
            #expect(!midnight, "\(what): revenue from \(r.from.map(\.description) ?? "-") is read unless within a day")
        }
    }

    @Test func randomLogsAnsweredAtRandomInstantsWindowsAndSeriesEqualAFullFoldAndSoAfterRandomAppends() throws {
        for seed: UInt64 in [3, 11, 29] {
            var rng = SplitMix64(seed: seed)
            let base = Array(ReportSummaries.base.prefix(300 + Int(rng.next() % 300)))
            let log = try TestLog(base)
            // Random lines go in through the import (it rejects the odd one: a transfer to oneself).
            try ReportSummaries.append(ReportSummaries.randomEvents(&rng, round: 0, count: 60, sent: base) + Self.moreEvents(&rng, round: 0, count: 60), to: log)
            let store = ProjectionStore(logDirectory: log.path, profile: .handz)
            var sandbox = store
            sandbox.timeIndexWithSandbox = true
            var sent = base
            for round in 0..<3 {
                let (index, rebuilt) = try store.timeIndex()
                #expect(rebuilt == (round == 0), "seed \(seed) round \(round): the first head is built, later ones updated")
                try Self.expectSameAsFold(index, log.path, seed: seed, round: round, &rng)
                // The index that counts sandbox events too: a file of its own, updated the same way.
                let (withSandbox, built) = try sandbox.timeIndex()
                #expect(built == (round == 0) && sandbox.timeIndexPath != store.timeIndexPath, "seed \(seed) round \(round): the sandbox index is apart")
                try Self.expectSameAsFold(withSandbox, log.path, seed: seed, round: round, sandbox: true, &rng)
                #expect(try !store.timeIndex().rebuilt, "seed \(seed) round \(round): the stored index is served for the same head")
                let lines = ReportSummaries.randomEvents(&rng, round: round + 1, count: 30, sent: sent) + Self.moreEvents(&rng, round: round + 1, count: 30)
                try ReportSummaries.append(lines, to: log)
                sent += lines
            }
        }
    }

    /// A fresh log of `lines` with its index built and stored; returns the log, store and file bytes.
    static func indexed(_ lines: [String]) throws -> (TestLog, ProjectionStore, [UInt8]) {
        let log = try TestLog(lines)
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        #expect(try store.timeIndex().rebuilt)
        return (log, store, try #require(try DurableFile.read(path: store.timeIndexPath)))
    }

    /// Serves the stored file or rebuilds; either way the answer equals a full fold. Every block
    /// of a stored base is read and checked (`memoryBase`), so damage anywhere is found.
    static func served(_ store: ProjectionStore, _ path: String, _ what: String) throws -> Bool {
        let at = Timestamp.parse("2026-03-15T00:00:00Z")!
        let (answer, refresh) = try store.answer { index in
            _ = try index.memoryBase()
            return (try index.counts(at: at), try index.funnel(at: at), try index.revenue(at: at, profile: .handz))
        }
        let full = try Replay.run(directory: path, options: ReplayOptions(profile: .handz, asOf: at))
        #expect(answer.0 == full.counts() && answer.1 == full.funnel() && answer.2 == full.revenue(), "\(what)")
        return !refresh.rebuilt
    }

    @Test func aDamagedBlockFoundByTheLookupThatReadsItIsRebuiltAndAskedAgainNeverServed() throws {
        let (log, store, bytes) = try Self.indexed(Array(ReportSummaries.base.prefix(600)))
        let table = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        let later = Timestamp.parse("2027-01-01T00:00:00Z")!
        let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: later)).counts()
        // The first block is the first key's (a metric's): its last step is what counts as of a later instant reads.
        for offset in [16 + table + 1, 16 + table + 9] {
            var damaged = bytes
            damaged[offset] ^= 0x01
            ReportSummaries.writeFile(store.timeIndexPath, damaged)
            let (index, refresh) = try store.refreshedTimeIndex()
            #expect(!refresh.rebuilt && refresh.update == nil, "offset \(offset): the table is whole, the file opens")
            #expect(throws: ProjectionReader.Unreadable.self, "offset \(offset): the lookup reading the block refuses it") { try index.counts(at: later) }
            let (counts, asked) = try store.answer(from: index) { try $0.counts(at: later) }
            #expect(asked.rebuilt && counts == full, "offset \(offset): built again and asked again")
            #expect(try DurableFile.read(path: store.timeIndexPath) == bytes, "offset \(offset): the rebuilt base is saved")
        }
    }

    @Test func aBitFlipAnywhereOrATruncationAtAnyByteOfTheHeaderIsRebuiltNeverServed() throws {
        let (log, store, bytes) = try Self.indexed(Array(ReportSummaries.base.prefix(300)))
        let step = max(1, bytes.count / 60)
        for offset in Array(stride(from: 0, to: bytes.count, by: step)) + [bytes.count - 1] {
            var damaged = bytes
            damaged[offset] ^= 0x04
            ReportSummaries.writeFile(store.timeIndexPath, damaged)
            #expect(try !Self.served(store, log.path, "bit flip at \(offset)"), "bit flip at \(offset)")
        }
        // The header: magic, version, fingerprint, head, hash, first event, money magnitude and key table.
        let header = 8 + 1 + 17 + 8 + 32 + 9 + 8 + 200
        for length in 0..<min(header, bytes.count) {
            ReportSummaries.writeFile(store.timeIndexPath, Array(bytes.prefix(length)))
            #expect(try !Self.served(store, log.path, "truncated to \(length)"), "truncated to \(length)")
        }
        ReportSummaries.writeFile(store.timeIndexPath, bytes)
        #expect(try Self.served(store, log.path, "whole again"))
    }

    @Test func theFileOfAnotherLogOfOtherRulesOrOfALaterHeadIsRebuiltNeverServed() throws {
        let lines = Array(ReportSummaries.base.prefix(400))
        let (_, _, longer) = try Self.indexed(lines)
        let (short, shortStore, _) = try Self.indexed(Array(lines.prefix(300)))
        ReportSummaries.writeFile(shortStore.timeIndexPath, longer)
        #expect(try !Self.served(shortStore, short.path, "a later head"))
        // Another log as long: same position, another chain hash.
        let (other, otherStore, _) = try Self.indexed(Array(ReportSummaries.base.dropFirst(400).prefix(300)))
        let (_, _, sameLength) = try Self.indexed(Array(lines.prefix(300)))
        ReportSummaries.writeFile(otherStore.timeIndexPath, sameLength)
        #expect(try !Self.served(otherStore, other.path, "another log at the same position"))
        // Other rules: another file name, and the fingerprint inside is checked too.
        var rules = shortStore
        rules.rulesFingerprint = "another"
        #expect(rules.timeIndexPath != shortStore.timeIndexPath)
        #expect(try !Self.served(rules, short.path, "other rules' first build"))
        ReportSummaries.writeFile(shortStore.timeIndexPath, try #require(try DurableFile.read(path: rules.timeIndexPath)))
        #expect(try !Self.served(shortStore, short.path, "other rules' file under this name"))
        // An earlier head (records appended since): brought up to the new head by walking the
        // users touched (TimeIndexUpdates), not built again.
        try ReportSummaries.append(Array(ReportSummaries.base.dropFirst(300).prefix(20)), to: short)
        #expect(try shortStore.refreshedTimeIndex().refresh.update?.recordsRead == 20)
        #expect(try Self.served(shortStore, short.path, "the new head's files"))
    }
}
