import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage
import Platform

/// The analysts' model (Analyst*.swift) against a second computation: a full fold of the same
/// random logs as of random instants (the revenue report's stocks and money, the funnel's
/// trials, every user's plan), and each segment's figures against the total.
@Suite struct AnalystModels {
    static let day: Int64 = 86_400_000_000_000
    static let forever: Int64 = 36_500 * day

    /// One window's total as of `b` (included), from `a`.
    static func window(_ model: AnalystModel, from a: Timestamp, to b: Timestamp, segment: Segment? = nil, within: Int64 = 7 * day,
                       lifetime: Int64 = forever) -> AnalystBreakdown {
        model.metrics(bounds: [a.nanoseconds, b.nanoseconds + 1], asOf: b.nanoseconds, within: within, lifetime: lifetime, segment: segment)[0]
    }

    /// The additive figures of `m` (every count and sum but the distinct customer counts), for comparing sums.
    static func additive(_ m: AnalystMetrics) -> AnalystMetrics {
        var m = m
        m.activeCustomers = 0
        m.payingCustomers = 0
        return m
    }

    static func randomLog(seed: UInt64) throws -> TestLog {
        var rng = SplitMix64(seed: seed)
        let base = Array(ReportSummaries.base.prefix(300 + Int(rng.next() % 300)))
        let log = try TestLog(base)
        try ReportSummaries.append(ReportSummaries.randomEvents(&rng, round: 0, count: 80, sent: base) + TimeIndexes.moreEvents(&rng, round: 0, count: 80), to: log)
        return log
    }

    @Test func stocksMoneyAndTrialsAtRandomInstantsEqualAFullFoldAndTheMovementsAddUpToTheStocks() throws {
        for seed: UInt64 in [5, 17, 42] {
            let log = try Self.randomLog(seed: seed)
            var rng = SplitMix64(seed: seed &+ 1)
            let model = try AnalystModel.build(directory: log.path, profile: .handz, partitions: 2).model
            let origin = Timestamp(nanoseconds: 0)
            for _ in 0..<10 {
                let x = TimeIndexes.randomInstant(&rng), y = TimeIndexes.randomInstant(&rng)
                let (a, b) = (min(x, y), max(x, y))
                let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: b))
                let revenue = full.revenue(), funnel = full.funnel()
                let all = Self.window(model, from: origin, to: b).total
                #expect(all.active == revenue.activeSubscriptions, "seed \(seed): active subscriptions at \(b)")
                for line in revenue.lines {
                    #expect((all.mrr[line.currency]?.mrr ?? .zero) == line.mrr, "seed \(seed): MRR \(line.currency) at \(b)")
                    #expect((all.revenue[line.currency] ?? .zero) == line.gross - line.refunded, "seed \(seed): revenue \(line.currency) to \(b)")
                    #expect((all.lifetimeRevenue[line.currency] ?? .zero) == line.gross - line.refunded, "seed \(seed): lifetime revenue \(line.currency) to \(b)")
                }
                #expect(all.mrr.values.filter { $0.mrr != .zero }.count == revenue.lines.filter { $0.mrr != .zero }.count, "seed \(seed): MRR currencies at \(b)")
                #expect(all.trialsStarted == funnel.trialsStarted && all.trialsConverted == funnel.trialsConverted,
                        "seed \(seed): trials at \(b): \(all.trialsStarted)/\(all.trialsConverted) vs \(funnel.trialsStarted)/\(funnel.trialsConverted)")
                #expect(all.trialsConverted + all.trialsPending + all.trialsAbandoned == all.trialsStarted, "seed \(seed): trial outcomes at \(b)")
                var charges = 0, payers = 0
                full.users.forEachFold { f in
                    charges += f.books.charges.count
                    if !f.books.charges.isEmpty { payers += 1 }
                }
                #expect(all.paidTransactions == charges, "seed \(seed): paid transactions to \(b)")
                #expect(all.payingCustomers == payers && all.lifetimePayingCustomers == payers, "seed \(seed): paying customers to \(b)")
                #expect(all.newCustomers == full.userIDs.count, "seed \(seed): customers seen by \(b)")

                // The movements within [a, b] are the change of the stock from just before a to b.
                let before = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: a - .init(nanoseconds: 1))).revenue()
                let w = Self.window(model, from: a, to: b).total
                #expect(w.newSubscriptions + w.resubscribed - w.churned == revenue.activeSubscriptions - before.activeSubscriptions,
                        "seed \(seed): net movement from \(a) to \(b)")
                for line in revenue.lines {
                    let old = before.lines.first { $0.currency == line.currency }?.mrr ?? .zero
                    #expect((w.mrr[line.currency]?.net ?? .zero) == line.mrr - old, "seed \(seed): net MRR movement \(line.currency) from \(a) to \(b)")
                }
            }
        }
    }

    @Test func everySegmentsFiguresAddUpToTheTotalAloneAndInASeries() throws {
        for seed: UInt64 in [8, 23] {
            let log = try Self.randomLog(seed: seed)
            var rng = SplitMix64(seed: seed)
            let model = try AnalystModel.build(directory: log.path, profile: .handz, partitions: 1).model
            for segment in Segment.allCases {
                let end = TimeIndexes.randomInstant(&rng)
                let bounds = (0...6).map { TimeIndexes.start.nanoseconds + Int64($0) * 30 * Self.day }
                for b in model.metrics(bounds: bounds, asOf: end.nanoseconds, within: 3 * Self.day, lifetime: 90 * Self.day, segment: segment) {
                    let sum = b.segments.values.reduce(AnalystMetrics()) { $0.adding(Self.additive($1)) }
                    #expect(sum == Self.additive(b.total), "seed \(seed): \(segment) segments sum to the total")
                    #expect(b.total.payingCustomers <= b.segments.values.reduce(0) { $0 + $1.payingCustomers }, "seed \(seed): \(segment) paying customers")
                }
                // A window's total is the same asked with or without a segment.
                let plain = model.metrics(bounds: bounds, asOf: end.nanoseconds, within: 3 * Self.day, lifetime: 90 * Self.day, segment: nil)
                let segmented = model.metrics(bounds: bounds, asOf: end.nanoseconds, within: 3 * Self.day, lifetime: 90 * Self.day, segment: segment)
                #expect(plain.map(\.total) == segmented.map(\.total), "seed \(seed): \(segment) totals")
            }
        }
    }

    @Test func customerListsAtRandomInstantsAreTheUsersAFullFoldFindsInThatPlan() throws {
        for seed: UInt64 in [4, 31] {
            let log = try Self.randomLog(seed: seed)
            var rng = SplitMix64(seed: seed)
            let model = try AnalystModel.build(directory: log.path, profile: .handz, partitions: 2).model
            for _ in 0..<8 {
                let at = TimeIndexes.randomInstant(&rng)
                let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: at))
                let views = full.userIDs.map { full.plan(of: $0) }
                for state in PlanState.allCases {
                    var f = CustomerFilter()
                    f.planState = state
                    let listed = model.customers(at: at, where: f).rows.map(\.user)
                    #expect(listed == views.filter { $0.planState == state }.map(\.user), "seed \(seed): \(state) at \(at)")
                }
                var issue = CustomerFilter()
                issue.billingIssue = true
                #expect(model.customers(at: at, where: issue).rows.map(\.user) == views.filter(\.billingIssue).map(\.user), "seed \(seed): billing issue at \(at)")
                var off = CustomerFilter()
                off.autoRenew = false
                #expect(model.customers(at: at, where: off).rows.map(\.user) == views.filter { $0.autoRenew == false }.map(\.user), "seed \(seed): auto-renew off at \(at)")
                var ending = CustomerFilter()
                ending.trialEndsBefore = at + .days(3)
                #expect(model.customers(at: at, where: ending).rows.map(\.user)
                        == views.filter { $0.planState == .trial && $0.expiresAt.map { $0 < at + .days(3) } == true }.map(\.user), "seed \(seed): trials ending at \(at)")
                // Pages of 7 make the whole list, in order.
                var pages: [String] = [], after: String?
                while true {
                    let page = model.customers(at: at, where: CustomerFilter(), after: after, limit: 7)
                    pages += page.rows.map(\.user)
                    guard page.more else { break }
                    after = page.rows.last?.user
                }
                #expect(pages == views.map(\.user), "seed \(seed): pages at \(at)")
            }
        }
    }
}

/// The kept analysts' model file: served only for the log's head, profile and rules, rebuilt
/// (never served) when damaged, foreign or stale; the answer is the same either way.
@Suite struct AnalystModelFiles {
    static func metrics(_ m: AnalystModel) -> [AnalystBreakdown] {
        let start = TimeIndexes.start.nanoseconds, day = AnalystModels.day
        return m.metrics(bounds: (0...5).map { start + Int64($0) * 40 * day }, asOf: start + 200 * day, within: 7 * day, lifetime: 90 * day, segment: .product)
    }

    static func lists(_ m: AnalystModel) -> [CustomerRow] { m.customers(at: TimeIndexes.start + .days(60), where: CustomerFilter()).rows }

    @Test func theStoredModelAnswersAsABuildAndIsRebuiltWhenTheLogGrowsOrTheFileIsDamaged() throws {
        let log = try AnalystModels.randomLog(seed: 13)
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let (built, rebuilt) = try store.analystModel()
        #expect(rebuilt)
        let (stored, again) = try store.analystModel()
        #expect(!again, "the same head is served from the file")
        let a = (Self.metrics(built), Self.lists(built))
        // Read for customer lists, the stored model answers them (its fact columns but the movements are not read).
        #expect(Self.lists(stored) == a.1)
        #expect(stored.position == built.position && stored.users == built.users)
        // Read without its spans, the model answers the same metrics.
        let light = try #require(try AnalystModel.read(path: store.analystModelPath, spans: false))
        #expect(Self.metrics(light) == a.0)

        // A query reads only its sections, each checked by its CRC: a bit flip anywhere is found by
        // the metrics' read or the customer lists' read (whichever reads that byte), and rebuilt.
        let bytes = try #require(try DurableFile.read(path: store.analystModelPath))
        for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 60)) + [bytes.count - 1, bytes.count - 6] {
            var damaged = bytes
            damaged[offset] ^= 0x10
            ReportSummaries.writeFile(store.analystModelPath, damaged)
            let (metrics, first) = try store.analystModel(spans: false)
            let (lists, second) = try store.analystModel(spans: true)
            #expect(first || second, "a bit flip at \(offset) is rebuilt, never served")
            #expect(Self.metrics(metrics) == a.0 && Self.lists(lists) == a.1, "bit flip at \(offset)")
        }
        ReportSummaries.writeFile(store.analystModelPath, Array(bytes.prefix(bytes.count / 2)))
        #expect(try store.analystModel().rebuilt, "a truncated file is rebuilt")

        // Another profile's rules (another fingerprint) and a longer log are built again.
        var other = store
        other.rulesFingerprint = "another"
        ReportSummaries.writeFile(other.analystModelPath, bytes)
        #expect(try other.analystModel().rebuilt, "another fingerprint inside the file")
        try ReportSummaries.append([#"{"id":"late_1","type":"paywall_viewed","user":"new_user","time":"2026-02-01T00:00:00Z","data":{"context":"x"}}"#], to: log)
        let (grown, rebuiltAfterAppend) = try store.analystModel()
        #expect(rebuiltAfterAppend && grown.position == built.position + 1 && grown.users.contains("new_user"))
    }
}
