import Testing
import TestKit
import LedgerFixture
import EventStore
import Parquet
import SubscriptionDomain
@testable import LedgerTables

/// Reading a log's tables: one `events` row per record, and the same `subscriptions` and `users`
/// rows whether the users are folded in one bucket or in many (transfers crossing buckets, users
/// whose events came out of time order folded again).
@Suite struct LedgerTableReading {
    /// A seeded story of `users` handz users: purchases (trial or paid), renewals, cancellations,
    /// refunds, billing issues, transfers to other users, and some events appended late.
    static func generated(seed: UInt64, users: Int) -> [String] {
        var rng = TestKit.SplitMix64(seed: seed)
        var lines: [String] = []
        let day: Int64 = 86_400
        let start: Int64 = 1_767_225_600   // 2026-01-01T00:00:00Z
        func time(_ s: Int64) -> String { Timestamp(seconds: s).description }
        for u in 0..<users {
            let user = "u\(u)"
            var now = start + Int64(rng.below(20)) * day + Int64(rng.below(86_400))
            var expires = now + (rng.below(2) == 0 ? 7 : 30) * day
            let trial = rng.below(2) == 0
            let offer = trial ? #","offer":"free_trial""# : #","price":"9.99","currency":"USD""#
            var own = [ev("\(user)-p", "purchase", user, time(now), #"{"product":"handz.pro.monthly","transaction":"\#(user)-1","expires":"\#(time(expires))"\#(offer)}"#)]
            for r in 0..<rng.below(4) {
                switch rng.below(6) {
                case 0: own.append(ev("\(user)-c\(r)", "cancellation", user, time(now + 3600)))
                case 1: own.append(ev("\(user)-b\(r)", "billing_issue", user, time(expires)))
                case 2: own.append(ev("\(user)-f\(r)", "refund", user, time(now + 7200), #"{"transaction":"\#(user)-\#(r + 1)"}"#))
                case 3: own.append(ev("\(user)-t\(r)", "transfer", user, time(now + 600), #"{"to":"u\#(rng.below(users))"}"#))
                default: break
                }
                now = expires
                expires = now + 30 * day
                own.append(ev("\(user)-r\(r)", "renewal", user, time(now), #"{"product":"handz.pro.monthly","transaction":"\#(user)-\#(r + 2)","expires":"\#(time(expires))","price":"9.99","currency":"USD"}"#))
            }
            // Now and then an event arrives after later ones: appended last, folded in time order.
            if own.count > 1, rng.below(4) == 0 { own.append(own.remove(at: 0)) }
            lines += own
        }
        return lines
    }

    static func rows(_ reader: LedgerTableReader, _ table: LedgerTable) throws -> [[ParquetValue]] {
        var out: [[ParquetValue]] = []
        try reader.forEachRow(table) { out.append($0) }
        return out
    }

    @Test("the events table has a row per record, in position order, with the record's frame and event")
    func eventRows() throws {
        let log = try TestLog(LedgerFixture.story)
        let reader = LedgerTableReader(log: try EventLog(directory: log.path, access: .read), profile: .handz, asOf: t("2026-03-01T00:00:00Z"))
        let rows = try Self.rows(reader, .events)
        #expect(rows.count == LedgerFixture.story.count && UInt64(rows.count) == reader.head.position)
        for (i, row) in rows.enumerated() {
            #expect(row.count == LedgerTable.events.columns.count)
            #expect(row[0] == .int64(Int64(i + 1)))
        }
        // Line 4 of the sample story: user a's trial purchase.
        #expect(rows[3][1] == .string("4") && rows[3][2] == .string("purchase") && rows[3][3] == .string("a"))
        #expect(rows[3][7] == .string("handz.pro.monthly") && rows[3][9] == .null)
        #expect(rows[3][11] == .string(#"{"product":"handz.pro.monthly","transaction":"a1","expires":"2026-01-08T10:03:00Z","offer":"free_trial"}"#))
        // Line 6: a renewal with a price.
        #expect(rows[5][9] == .int64(9_990_000) && rows[5][10] == .string("USD"))
    }

    @Test("folded in many buckets or in one, the subscriptions and users tables are the same rows", arguments: [UInt64(11), 12, 13])
    func bucketsDoNotChangeTheRows(seed: UInt64) throws {
        let lines = Self.generated(seed: seed, users: 40)
        let log = try TestLog(lines, batch: 7)
        var reader = LedgerTableReader(log: try EventLog(directory: log.path, access: .read), profile: .handz, asOf: t("2026-03-15T00:00:00Z"))
        let subscriptions = try Self.rows(reader, .subscriptions), users = try Self.rows(reader, .users)
        #expect(users.count == 40, "seed \(seed)")
        #expect(subscriptions.count >= 40, "seed \(seed)")
        reader.recordsPerBucket = 9
        #expect(reader.bucketCount > 5)
        func sorted(_ rows: [[ParquetValue]]) -> [String] { rows.map { "\($0)" }.sorted() }
        #expect(sorted(try Self.rows(reader, .subscriptions)) == sorted(subscriptions), "seed \(seed)")
        #expect(sorted(try Self.rows(reader, .users)) == sorted(users), "seed \(seed)")
    }

    @Test("a transfer makes the recipient's period and ends the sender's, whichever buckets they fall in")
    func transferAcrossBuckets() throws {
        let lines = [PeriodFoldStories.buy("1", "old", "2026-01-01T00:00:00Z", txn: "o1", expires: "2026-02-01T00:00:00Z"),
                     ev("2", "transfer", "old", "2026-01-10T00:00:00Z", #"{"to":"new"}"#),
                     ev("3", "account_created", "new", "2026-01-09T00:00:00Z")]
        let log = try TestLog(lines)
        for perBucket in [UInt64(1_000_000), 1] {
            var reader = LedgerTableReader(log: try EventLog(directory: log.path, access: .read), profile: .handz, asOf: t("2026-01-20T00:00:00Z"))
            reader.recordsPerBucket = perBucket
            let rows = try Self.rows(reader, .subscriptions)
            let byUser = Dictionary(grouping: rows) { "\($0[0])" }
            #expect(byUser["\(ParquetValue.string("old"))"]?.first?[7] == TableCell.time(t("2026-01-10T00:00:00Z")), "per bucket \(perBucket)")
            #expect(byUser["\(ParquetValue.string("new"))"]?.first?[5] == TableCell.time(t("2026-01-10T00:00:00Z")), "per bucket \(perBucket)")
            #expect(byUser["\(ParquetValue.string("new"))"]?.first?[7] == .null, "per bucket \(perBucket)")
        }
    }

    @Test("a user whose events came out of time order is folded in effect order: its rows are those of the ordered log")
    func lateEventsFoldedInOrder() throws {
        let ordered = [PeriodFoldStories.buy("1", "l", "2026-01-01T00:00:00Z", txn: "l1", expires: "2026-02-01T00:00:00Z"),
                       PeriodFoldStories.renew("2", "l", "2026-02-01T00:00:00Z", txn: "l2", expires: "2026-03-01T00:00:00Z")]
        let inTime = try TestLog(ordered), late = try TestLog(ordered.reversed())
        let at = t("2026-02-10T00:00:00Z")
        let a = try Self.rows(LedgerTableReader(log: try EventLog(directory: inTime.path, access: .read), profile: .handz, asOf: at), .subscriptions)
        let b = try Self.rows(LedgerTableReader(log: try EventLog(directory: late.path, access: .read), profile: .handz, asOf: at), .subscriptions)
        #expect(a.count == 2 && a == b)
    }
}
