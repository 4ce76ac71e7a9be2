import Foundation
import Testing
import TestKit

/// Edges of `sync` the main stories do not reach: a checkpoint that does not match in any one of
/// its fields, a transfer's recipient, two ledger users one row would hold, and an instant finer
/// than PostgreSQL keeps.
extension PostgresSync {
    /// The checkpoint is trusted only if every field matches: one tampered field (rules
    /// fingerprint, profile digest, mapping version, chain hash, a position past the head or
    /// before it) is refused with exit 1 and the table left as it was; restored, the sync runs.
    @Test func checkpointDifferingInAnyOneFieldIsRefused() throws {
        let s = Scratch()
        let u = (1...2).map { SyncFixture.uuid(12, $0) }
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate",
                                      [purchase(1, u[0], at: 0, days: 30), purchase(2, u[1], at: 1, days: 30)].joined(separator: "\n"))
        let db = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", day(5)]).status == 0)
        let before = try SyncFixture.snapshot(pg, db)
        let tampers: [(set: String, undo: String, says: String)] = [
            ("rules_fingerprint = 'x' || rules_fingerprint", "rules_fingerprint = substr(rules_fingerprint, 2)", "other rules"),
            ("profile_digest = 'x' || profile_digest", "profile_digest = substr(profile_digest, 2)", "other rules"),
            ("mapping_version = mapping_version + 1", "mapping_version = mapping_version - 1", "other rules"),
            ("log_chain_hash = translate(log_chain_hash, '0123456789abcdef', '123456789abcdef0')",
             "log_chain_hash = translate(log_chain_hash, '123456789abcdef0', '0123456789abcdef')", "another log"),
            ("log_position = log_position + 3", "log_position = log_position - 3", "another log"),
            ("log_position = log_position - 1", "log_position = log_position + 1", "another log"),
        ]
        for t in tampers {
            _ = try pg.rows(db, "UPDATE ledger_checkpoint SET \(t.set);")
            let r = SyncFixture.sync(log, "mirrormate", db, ["--at", day(6)])
            #expect(r.status == 1 && r.err.contains(t.says) && r.err.contains("--rebuild"), "\(t.set): \(r.err)")
            _ = try pg.rows(db, "UPDATE ledger_checkpoint SET \(t.undo);")
            #expect(try SyncFixture.snapshot(pg, db) == before, "\(t.set)")
        }
        let r = SyncFixture.sync(log, "mirrormate", db, ["--at", day(6)])
        #expect(r.status == 0 && (Tool.json(r.out) as? [String: Any])?["upToDate"] as? Bool == true, "\(r.err)")
    }

    /// A transfer appended after a checkpoint changes two users, and the recipient's stream does
    /// not hold it: the incremental sync writes the recipient's row (MirrorMate) or profile (TOMO)
    /// and removes or resets the sender's.
    @Test(arguments: ["mirrormate", "tomo"])
    func transferAfterTheCheckpointWritesTheRecipient(profile: String) throws {
        let s = Scratch()
        let u = (1...2).map { SyncFixture.uuid(13, $0) }
        let product = profile == "tomo" ? #""product":"tomo.pro.yearly""# : Self.product
        let buy = SyncFixture.event("p1", "purchase", u[0], Self.t0, hours: 0, #"{\#(product),"transaction":"t1","expires":"\#(day(30))"}"#)
        let log = try SyncFixture.log(s, "ledger", profile: profile, [
            buy, SyncFixture.event("a2", "account_created", u[1], Self.t0, hours: 1),
        ].joined(separator: "\n"))
        let db = try pg.createDatabase()
        #expect(SyncFixture.sync(log, profile, db, ["--init", "--at", day(1)]).status == 0)
        try SyncFixture.append(s, log, profile: profile, SyncFixture.event("x1", "transfer", u[0], Self.t0, hours: 48, #"{"to":"\#(u[1])"}"#))
        let r = SyncFixture.sync(log, profile, db, ["--at", day(3)])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.status == 0 && (Tool.json(r.out) as? [String: Any])?["usersExamined"] as? Int == 2)
        if profile == "tomo" {
            #expect(try pg.rows(db, "SELECT id, subscription_tier, \(SyncFixture.utc("subscription_expires_at")) FROM profiles ORDER BY id;")
                    == [[u[0], "free", ""], [u[1], "pro", day(30)]])
        } else {
            #expect(try pg.rows(db, "SELECT user_id, transaction_id, status FROM subscriptions;") == [[u[1], "t1", "active"]])
        }
        try expectRowsEqualState(log, profile, db, users: [u[1]], at: day(3))
    }

    /// Two ledger users one row would hold are settled before anything is written, and the
    /// sync commits: the same UUID in other letter case, and (MirrorMate's unique
    /// transaction_id) a second account naming another user's original transaction. The user
    /// whose id sorts first keeps the row; the other is reported.
    @Test func twoUsersForOneRowKeepOneAndReportTheOther() throws {
        let s = Scratch()
        let lower = SyncFixture.uuid(0xab, 0xcd), upper = lower.uppercased()
        let u3 = SyncFixture.uuid(14, 3), u4 = SyncFixture.uuid(14, 4)
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", [
            purchase(1, lower, at: 0, days: 30), purchase(2, upper, at: 1, days: 30), purchase(3, u3, at: 0, days: 30),
            SyncFixture.event("p4", "purchase", u4, Self.t0, hours: 48,
                              #"{\#(Self.product),"transaction":"t4","originalTransaction":"t3","expires":"\#(day(32))"}"#),
        ].joined(separator: "\n"))
        let db = try pg.createDatabase()
        let r = SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", day(5)])
        #expect(r.status == 0, "\(r.err)")
        guard r.status == 0 else { return }
        let skipped = ((Tool.json(r.out) as? [String: Any])?["skipped"] as? [[String: Any]] ?? []).map { $0["user"] as? String ?? "" }
        #expect(skipped.sorted() == [lower, u4].sorted(), "\(r.out)")
        let rows = try pg.rows(db, "SELECT user_id, transaction_id FROM subscriptions ORDER BY user_id;")
        #expect(rows == [[u3, "t3"], [lower, "t2"]], "\(rows)")
        #expect(try pg.rows(db, "SELECT ledger_user FROM ledger_sync_skipped ORDER BY 1;") == [lower, u4].sorted().map { [$0] })
    }

    /// PostgreSQL keeps microseconds: an --at with nanoseconds is cut (not rounded) to them, so
    /// the checkpoint holds the instant exactly and the same --at again finds nothing to do.
    @Test func instantFinerThanMicrosecondsIsCutSoTheCheckpointHoldsIt() throws {
        let s = Scratch()
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", purchase(1, SyncFixture.uuid(15, 1), at: 0, days: 30))
        let db = try pg.createDatabase()
        let at = "2026-01-06T10:00:00.123456789Z"
        let first = SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", at])
        #expect(first.status == 0, "\(first.err)")
        guard first.status == 0 else { return }
        #expect((Tool.json(first.out) as? [String: Any])?["asOf"] as? String == "2026-01-06T10:00:00.123456Z")
        #expect(try pg.rows(db, "SELECT to_char(as_of AT TIME ZONE 'UTC', 'HH24:MI:SS.US') FROM ledger_checkpoint;") == [["10:00:00.123456"]])
        let again = SyncFixture.sync(log, "mirrormate", db, ["--at", at])
        #expect(again.status == 0 && (Tool.json(again.out) as? [String: Any])?["upToDate"] as? Bool == true, "\(again.err)")
    }

    /// HowRU's status per plan (docs/postgres.md): Pro renewing `active`, Pro with auto-renew off
    /// `cancelled`, billing grace `billing_issue`, refunded `refunded`; production rows are not
    /// marked is_sandbox.
    @Test func howruStatusPerPlan() throws {
        let s = Scratch()
        func buy(_ user: String, _ n: Int, sandbox: Bool = false) -> String {
            SyncFixture.event("h\(n)", "purchase", user, Self.t0, hours: 0,
                              #"{"product":"howru_premium_monthly","transaction":"h-t\#(n)","expires":"\#(day(30))"\#(sandbox ? #","environment":"sandbox""# : "")}"#)
        }
        let log = try SyncFixture.log(s, "ledger", profile: "howru", [
            buy("a-prod", 1), buy("b-sandbox", 2, sandbox: true),
            buy("c-cancel", 3), SyncFixture.event("c3", "cancellation", "c-cancel", Self.t0, hours: 24),
            buy("d-billing", 4), SyncFixture.event("g4", "billing_issue", "d-billing", Self.t0, hours: 4 * 24),
            buy("e-refund", 5), SyncFixture.event("r5", "refund", "e-refund", Self.t0, hours: 24, #"{"transaction":"h-t5"}"#),
        ].joined(separator: "\n"))
        let db = try pg.createDatabase()
        let r = SyncFixture.sync(log, "howru", db, ["--init", "--at", day(5)])
        #expect(r.status == 0, "\(r.err)")
        let rows = try pg.rows(db, "SELECT revenue_cat_id, is_sandbox, status FROM subscriptions ORDER BY 1;")
        // A user whose only subscription is a sandbox one keeps a row, marked is_sandbox (seed 002).
        #expect(rows == [["a-prod", "f", "active"], ["b-sandbox", "t", "active"], ["c-cancel", "f", "cancelled"],
                    ["d-billing", "f", "billing_issue"], ["e-refund", "f", "refunded"]], "\(rows)")
    }

    /// An incremental sync replaces the skip reports of the users it examined only: a user
    /// skipped by the first sync (a non-UUID id) stays reported after a sync about another user.
    @Test func incrementalSyncKeepsTheSkipReportsOfUsersItDidNotExamine() throws {
        let s = Scratch()
        let u = SyncFixture.uuid(16, 1)
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", [purchase(1, "tom", at: 0, days: 30), purchase(2, u, at: 0, days: 30)].joined(separator: "\n"))
        let db = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", day(1)]).status == 0)
        #expect(try pg.rows(db, "SELECT ledger_user FROM ledger_sync_skipped;") == [["tom"]])
        try SyncFixture.append(s, log, profile: "mirrormate", SyncFixture.event("c2", "cancellation", u, Self.t0, hours: 36))
        let r = SyncFixture.sync(log, "mirrormate", db, ["--at", day(2)])
        #expect(r.status == 0 && (Tool.json(r.out) as? [String: Any])?["usersExamined"] as? Int == 1, "\(r.err)")
        #expect(try pg.rows(db, "SELECT ledger_user FROM ledger_sync_skipped;") == [["tom"]])
    }

    /// TOMO's profiles belong to the app: one the ledger has no user for is reset to free (not
    /// deleted), and one already free is left alone (its subscription_updated_at stays NULL).
    @Test func tomoProfilesTheLedgerDoesNotKnowAreResetOnlyIfNotFree() throws {
        let s = Scratch()
        let known = SyncFixture.uuid(17, 1), paid = SyncFixture.uuid(17, 2), free = SyncFixture.uuid(17, 3)
        let log = try SyncFixture.log(s, "tomo", profile: "tomo", SyncFixture.event("a1", "account_created", known, Self.t0, hours: 0))
        let db = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "tomo", db, ["--init", "--at", day(1)]).status == 0)
        _ = try pg.rows(db, "INSERT INTO profiles (id, subscription_tier, subscription_expires_at, revenuecat_customer_id) VALUES ('\(paid)', 'pro', now(), 'rc'), ('\(free)', 'free', NULL, NULL);")
        let r = SyncFixture.sync(log, "tomo", db, ["--rebuild", "--at", day(1)])
        #expect(r.status == 0 && (Tool.json(r.out) as? [String: Any])?["deleted"] as? Int == 1, "\(r.out) \(r.err)")
        #expect(try pg.rows(db, "SELECT id, subscription_tier, subscription_expires_at IS NULL, revenuecat_customer_id IS NULL, subscription_updated_at IS NULL FROM profiles ORDER BY id;")
                == [[known, "free", "t", "f", "f"], [paid, "free", "t", "t", "f"], [free, "free", "t", "t", "t"]])
    }

    /// The checkpoint is written inside the rows' transaction: when the database refuses the
    /// checkpoint row (a trigger here), the rows written before it are rolled back too.
    @Test func refusedCheckpointRollsBackTheRows() throws {
        let s = Scratch()
        let u = SyncFixture.uuid(18, 1)
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", purchase(1, u, at: 0, days: 30))
        let db = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", day(1)]).status == 0)
        try SyncFixture.append(s, log, profile: "mirrormate", SyncFixture.event("c1", "cancellation", u, Self.t0, hours: 36))
        let before = try SyncFixture.snapshot(pg, db)
        _ = try pg.rows(db, """
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'checkpoint refused'; END$$;
            CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON ledger_checkpoint FOR EACH ROW EXECUTE FUNCTION refuse();
            """)
        let r = SyncFixture.sync(log, "mirrormate", db, ["--at", day(2)])
        #expect(r.status == 1 && r.err.contains("checkpoint refused"), "\(r.err)")
        #expect(try SyncFixture.snapshot(pg, db) == before)
        #expect(try pg.rows(db, "SELECT auto_renew_enabled FROM subscriptions;") == [["t"]])
    }
}
