import Testing
import TestKit
@testable import PostgresSink

/// The staged data of one sync: rows, keys, ids and skips collected per user; the conflicts the
/// table's unique constraints would refuse settled before anything is sent (the id sorting first
/// keeps the row); the COPY blocks streamed in order.
@Suite struct SyncBatchStaging {
    static func mm(_ user: String, txn: String) -> SyncRow {
        .row(key: user, fields: [user, txn, "com.mirrormate.premium.monthly", "active", "2026-02-01T00:00:00Z", "t", "f", nil, "2026-01-01T00:00:00Z", nil])
    }

    @Test("an incremental batch stages each user's key and id; a full one stages rows and skips only")
    func keyedAndFull() {
        var keyed = SyncBatch(target: .mirrormate), full = SyncBatch(target: .mirrormate)
        let outcomes: [(SyncRow, String)] = [(Self.mm(uuid(1), txn: "a"), uuid(1)), (.none(key: uuid(2)), uuid(2)), (.none(key: nil), "x\0y"),
                                             (.skipped(reason: "why"), "tom")]
        for (row, user) in outcomes {
            keyed.add(row, user: user, keyed: true)
            full.add(row, user: user, keyed: false)
        }
        #expect(keyed.examined == 4 && full.examined == 4)
        #expect(keyed.keys == [uuid(1), uuid(2)] && full.keys.isEmpty)
        #expect(keyed.users == [uuid(1), uuid(2), "x\u{FFFD}y", "tom"] && full.users.isEmpty, "NUL cannot be PostgreSQL text")
        #expect(keyed.rows.count == 1 && full.rows.count == 1)
        #expect(keyed.skipped.map(\.user) == ["tom"] && keyed.skipped.map(\.reason) == ["why"])
    }

    @Test("two users with one UUID in other letter cases, or one original transaction: the first id keeps the row, the other is reported")
    func conflictsSettled() {
        var batch = SyncBatch(target: .mirrormate)
        let upper = uuid(0xA).uppercased(), lower = uuid(0xA)
        for (user, txn) in [(lower, "t1"), (upper, "t2"), (uuid(0xB), "shared"), (uuid(0xC), "shared"), (uuid(0xD), "own")] {
            batch.add(Self.mm(user, txn: txn), user: user, keyed: true)
        }
        batch.settleConflicts()
        #expect(batch.rows.map { $0[0]! } == [upper, uuid(0xB), uuid(0xD)], "uppercase sorts first; B before C")
        #expect(batch.skipped.map(\.user) == [lower, uuid(0xC)])
        #expect(batch.skipped[0].reason == "user id is the same UUID as user \(upper)'s")
        #expect(batch.skipped[1].reason == "original transaction shared is also user \(uuid(0xB))'s")
        #expect(batch.keys == [lower, uuid(0xB), uuid(0xC), uuid(0xD)], "one key per UUID whatever its case")
    }

    @Test("HowRU keys are text: ids differing only in case are two users, and a shared transaction is not a conflict")
    func howruIsNotSettledAsUUIDs() {
        var batch = SyncBatch(target: .howru)
        for user in ["Ann", "ann"] {
            batch.add(.row(key: user, fields: [user, nil, "premium", "active", "howru_premium_monthly", "app_store", nil, nil, "f"]), user: user, keyed: false)
        }
        batch.settleConflicts()
        #expect(batch.rows.count == 2 && batch.skipped.isEmpty)
    }

    @Test("the staged data goes as COPY blocks: rows, then keys and users when incremental, then skips, each ended by \\.")
    func copyBlocks() throws {
        var rng = SplitMix64(seed: 0xC0FFEE)
        var batch = SyncBatch(target: .tomo)
        var expected: [String] = []
        for n in 0..<300 {
            // Values with the characters COPY escapes, drawn from a seeded generator.
            let tier = String((0..<rng.below(8)).map { _ in ["a", "\t", "\\", "\n", "\r", "é", "'"][rng.below(7)] })
            let fields: [String?] = [uuid(n), tier, rng.below(2) == 0 ? nil : "2026-01-01T00:00:00Z", uuid(n)]
            batch.add(.row(key: uuid(n), fields: fields), user: uuid(n), keyed: true)
            expected.append(SQLText.copyLine(fields))
        }
        batch.add(.skipped(reason: "tab\there"), user: "bad", keyed: true)
        var sent: [String] = []
        try batch.send(to: { sent.append($0) }, incremental: true)
        let text = sent.joined()
        let blocks = text.components(separatedBy: "\\.\n").dropLast()
        #expect(blocks.count == 4, "seed 0xC0FFEE")
        #expect(blocks[0] == "COPY sync_rows FROM STDIN;\n" + expected.joined(), "seed 0xC0FFEE")
        #expect(blocks[1].hasPrefix("COPY sync_keys FROM STDIN;\n") && blocks[1].split(separator: "\n").count == 301)
        #expect(blocks[2].hasPrefix("COPY sync_users FROM STDIN;\n") && blocks[2].hasSuffix("bad\n"))
        #expect(blocks[3] == "COPY sync_skipped FROM STDIN;\nbad\ttab\\there\n")
        // Each staged line has as many fields as the table has columns: no value's tab or newline leaked.
        for line in blocks[0].split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast() {
            #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 4, "seed 0xC0FFEE: \(line)")
        }
        var full: [String] = []
        try batch.send(to: { full.append($0) }, incremental: false)
        #expect(!full.joined().contains("sync_keys") && !full.joined().contains("sync_users"))
    }
}
