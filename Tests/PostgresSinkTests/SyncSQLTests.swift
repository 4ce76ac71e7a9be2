import Testing
import SubscriptionDomain
@testable import PostgresSink

/// The SQL a sync sends, as text: the staging tables, the statements that bring the table to the
/// staged rows (only differing rows updated, match columns never set), the checkpoint's query,
/// guard and upsert with every value quoted, and the migrations in order, each safe to run twice.
@Suite struct SyncSQLText {
    static let checkpoint = SyncCheckpoint(profile: "mirror'mate", profileDigest: "0123456789abcdef", rulesFingerprint: "rf",
                                           mappingVersion: SyncTarget.mappingVersion, position: 42, chainHash: String(repeating: "ab", count: 32),
                                           asOf: Timestamp.parse("2026-01-02T03:04:05.123456Z")!)

    @Test("the checkpoint line the query prints parses back; a line of another shape is refused naming it; no line is no checkpoint")
    func checkpointLine() throws {
        let c = Self.checkpoint
        let line = [c.profile, c.profileDigest, c.rulesFingerprint, String(c.mappingVersion), String(c.position), c.chainHash, "2026-01-02T03:04:05.123456Z"]
            .joined(separator: "|")
        #expect(try SyncCheckpoint.parse("\n" + line + "\n") == c)
        #expect(try SyncCheckpoint.parse("") == nil && (try SyncCheckpoint.parse("\n\n")) == nil)
        for bad in [line + "|extra", line.replacingOccurrences(of: "|42|", with: "|-1|"), line.replacingOccurrences(of: "|2|", with: "|two|"),
                    line.replacingOccurrences(of: "2026-01-02T03:04:05.123456Z", with: "yesterday")] {
            #expect(throws: SyncError.self, "\(bad)") { try SyncCheckpoint.parse(bad) }
            do { _ = try SyncCheckpoint.parse(bad) } catch let e as SyncError {
                #expect(e.message == "ledger_checkpoint holds a row this tool cannot read: \(bad)")
            }
        }
        #expect(SyncCheckpoint.query(.howru).contains("WHERE target = 'howru'"))
    }

    @Test("the guard locks the target and compares with what was read (NULL for a first sync); the upsert quotes every text value")
    func guardAndUpsert() {
        let first = SyncCheckpoint.guardSQL(.tomo, expected: nil)
        #expect(first.contains("pg_advisory_xact_lock(hashtext('replay-tool sync tomo'))"))
        #expect(first.contains("IS DISTINCT FROM NULL OR") && first.contains("IS DISTINCT FROM NULL THEN"))
        let c = Self.checkpoint
        let next = SyncCheckpoint.guardSQL(.mirrormate, expected: c)
        #expect(next.contains("IS DISTINCT FROM '42 \(c.chainHash) rf 0123456789abcdef'"))
        #expect(next.contains("IS DISTINCT FROM '2026-01-02T03:04:05.123456Z'::timestamptz"))
        let upsert = c.upsertSQL(.mirrormate, rowsWritten: ":deleted + :updated + :inserted")
        #expect(upsert.contains("VALUES ('mirrormate', 'mirror''mate', '0123456789abcdef', 'rf', \(SyncTarget.mappingVersion), 42, '\(c.chainHash)', '2026-01-02T03:04:05.123456Z', :deleted + :updated + :inserted, now())"))
        #expect(upsert.contains("ON CONFLICT (target) DO UPDATE"))
    }

    @Test("staging: an incremental sync adds the keys table, typed as the target's key")
    func staging() {
        for target in SyncTarget.allCases {
            let full = target.stagingSQL(incremental: false), incremental = target.stagingSQL(incremental: true)
            #expect(full.hasPrefix("CREATE TEMP TABLE sync_rows (" + target.stagedColumns.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ") ON COMMIT DROP;"))
            #expect(!full.contains("sync_keys") && incremental.contains("CREATE TEMP TABLE sync_keys (key \(target == .howru ? "text" : "uuid") PRIMARY KEY)"))
            #expect(incremental.contains("sync_skipped") && incremental.contains("sync_users"))
        }
    }

    @Test("apply: rows updated only where a column differs, match columns never set; deletes scoped to examined keys when incremental")
    func apply() {
        let mm = SyncTarget.mirrormate.applySQL(incremental: true)
        #expect(mm.contains("UPDATE subscriptions t SET transaction_id = r.transaction_id, status = r.status, expires_at = r.expires_at, auto_renew_enabled = r.auto_renew_enabled, is_trial = r.is_trial, trial_ends_at = r.trial_ends_at, purchased_at = r.purchased_at, cancelled_at = r.cancelled_at, updated_at = now()"))
        #expect(mm.contains("WHERE t.user_id = r.user_id AND t.product_id = r.product_id AND (t.transaction_id,"))
        #expect(mm.contains("IS DISTINCT FROM (r.transaction_id,"))
        #expect(mm.contains("DELETE FROM subscriptions t WHERE NOT EXISTS (SELECT 1 FROM sync_rows r WHERE t.user_id = r.user_id AND t.product_id = r.product_id) AND t.user_id IN (SELECT key FROM sync_keys);"))
        #expect(mm.contains("original transaction ' || r.transaction_id || ' is already the row of user "))
        #expect(!SyncTarget.mirrormate.applySQL(incremental: false).contains("sync_keys"))
        let tomo = SyncTarget.tomo.applySQL(incremental: false)
        #expect(!tomo.contains("DELETE FROM profiles"), "the app owns its profiles: reset, never deleted")
        #expect(tomo.contains("UPDATE profiles t SET subscription_tier = 'free', subscription_expires_at = NULL, revenuecat_customer_id = NULL"))
        #expect(tomo.contains("subscription_updated_at = now()"))
        for target in SyncTarget.allCases {
            let sql = target.applySQL(incremental: true)
            #expect(sql.contains("DELETE FROM ledger_sync_skipped WHERE target = '\(target.rawValue)' AND ledger_user IN (SELECT ledger_user FROM sync_users);"))
            #expect(sql.contains("\\echo 'written' :deleted :updated :inserted"))
            for variable in ["deleted", "updated", "inserted"] { #expect(sql.contains("\\set \(variable) :ROW_COUNT"), "\(target) \(variable)") }
        }
    }

    @Test("migrations: the ledger's tables first, then the seed's, ids unique under their target, each statement safe to run again")
    func migrations() {
        var ids: Set<String> = []
        for target in SyncTarget.allCases {
            let m = target.migrations
            #expect(m.map(\.id) == ["ledger/0001_checkpoint", m[1].id] && m[1].id.hasPrefix(target.rawValue + "/0001_"))
            for migration in m {
                ids.insert(migration.id)
                // The statements without their comments (which quote the seeds' Supabase lines).
                let sql = migration.sql.uppercased().split(separator: "\n").map { $0.components(separatedBy: "--")[0] }.joined(separator: "\n")
                // Every CREATE, index and column is guarded, and functions are replaced: a second run changes nothing.
                for creation in ["CREATE TABLE", "CREATE INDEX", "CREATE UNIQUE INDEX", "ADD COLUMN"] {
                    let total = sql.components(separatedBy: creation + " ").count - 1
                    let guarded = sql.components(separatedBy: creation + " IF NOT EXISTS ").count - 1
                    #expect(total == guarded, "\(migration.id): \(creation)")
                }
                #expect(!sql.contains("CREATE FUNCTION"), "\(migration.id): functions are CREATE OR REPLACE")
                #expect(!sql.contains("DROP ") && !sql.contains("REFERENCES"), "\(migration.id)")
            }
        }
        #expect(ids.count == 4)
        #expect(SyncTarget.mirrormate.rival == .howru && SyncTarget.howru.rival == .mirrormate && SyncTarget.tomo.rival == nil)
    }
}
