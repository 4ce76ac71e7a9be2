import Foundation
import Testing
import TestKit

/// `sync` against a real PostgreSQL (a throwaway server, TestPostgres): the seeds' tables equal
/// the ledger's states, the seed's SQL functions answer from them, a run is one transaction with
/// its checkpoint, and incremental runs write only what changed.
@Suite(.enabled(if: TestPostgres.available, "needs initdb, pg_ctl and psql (PostgreSQL; .ci/run installs it)"))
struct PostgresSync {
    static let at = "2026-02-06T12:00:00Z"
    var pg: TestPostgres { TestPostgres.shared! }

    /// Each row of `profile`'s table, by ledger user, checked against `state --format json` for that user.
    func expectRowsEqualState(_ log: String, _ profile: String, _ db: String, users: [String], at: String) throws {
        for user in users {
            let s = try SyncFixture.state(log, profile, user, at: at)
            let planState = s["planState"] as! String
            let product = s["product"] as? String
            let expires = s["expiresAt"] as? String ?? ""
            let autoRenew = s["autoRenew"] as? Bool
            switch profile {
            case "mirrormate":
                let rows = try pg.rows(db, """
                    SELECT product_id, status, \(SyncFixture.utc("expires_at")), auto_renew_enabled, \(SyncFixture.utc("cancelled_at")),
                        is_trial, \(SyncFixture.utc("trial_ends_at")) FROM subscriptions
                    WHERE user_id = '\(user)';
                    """)
                guard let product else { #expect(rows.isEmpty, "\(user) has no subscription but a row"); continue }
                #expect(rows.count == 1, "\(user): \(rows)")
                guard let r = rows.first else { continue }
                let status = ["trial": "active", "pro": "active", "pro_grace": "grace_period"][planState]
                #expect(r[0] == product && r[2] == expires && r[3] == ((autoRenew ?? false) ? "t" : "f"), "\(user): \(r) vs \(s)")
                if let status { #expect(r[1] == status, "\(user): \(r[1]) for \(planState)") } else { #expect(["expired", "cancelled"].contains(r[1])) }
                // cancelled_at: when auto-renew was turned off while it is off, else a withdrawal's time (status cancelled) or NULL.
                if let off = s["autoRenewOffAt"] as? String { #expect(r[4] == off, "\(user): \(r) vs \(s)") }
                else if r[1] != "cancelled" { #expect(r[4] == "", "\(user): \(r) vs \(s)") }
                // is_trial: the period is a free trial (so while the plan is trial); trial_ends_at: expires_at then, else NULL.
                if planState == "trial" { #expect(r[5] == "t", "\(user): \(r) vs \(s)") }
                #expect(r[6] == (r[5] == "t" ? r[2] : ""), "\(user): \(r) vs \(s)")
            case "tomo":
                let rows = try pg.rows(db, """
                    SELECT subscription_tier, \(SyncFixture.utc("subscription_expires_at")), revenuecat_customer_id FROM profiles
                    WHERE id = '\(user)';
                    """)
                // A profile for every user the ledger knows as of the instant (one with no event yet has none).
                let known = (s["rule"] as! [String: Any])["id"] as! String != "CH08 L349"
                #expect(rows == (known ? [[s["tier"] as! String, expires, user]] : []), "\(user): \(rows) vs \(s)")
            default:
                let rows = try pg.rows(db, """
                    SELECT plan, status, product_id, \(SyncFixture.utcNaive("expiration_date")), coalesce(user_id::text, '') FROM subscriptions
                    WHERE revenue_cat_id = '\(user)';
                    """)
                guard let product else { #expect(rows.isEmpty, "\(user) has no subscription but a row"); continue }
                let grace = s["graceReason"] as? String
                let status: Set<String> = switch planState {
                case "trial": ["trial"]
                case "pro": [autoRenew == true ? "active" : "cancelled"]
                case "pro_grace": [grace == "billing" ? "billing_issue" : "grace_period"]
                default: ["expired", "refunded", "revoked"]
                }
                #expect(rows.count == 1 && rows[0][0] == s["tier"] as! String && status.contains(rows[0][1]) && rows[0][2] == product
                        && rows[0][3] == expires && rows[0][4] == user, "\(user): \(rows) vs \(s)")
            }
        }
    }

    /// Every sample log in events/, its users given UUIDs, synced under its profile together with
    /// a generated population: each row equals `replay-tool state` for its user, and users without
    /// a subscription have none (but every TOMO user has a profile).
    @Test(arguments: ["mirrormate", "tomo", "howru"])
    func everySampleLogSyncsToRowsEqualToState(profile: String) throws {
        let s = Scratch()
        let sample = try String(contentsOfFile: Tool.packageRoot + "/events/\(profile).jsonl", encoding: .utf8)
        let (story, storyUsers) = SyncFixture.withUUIDUsers(sample, namespace: 1)
        let generated = Tool.run(["generate", "--users", "12", "--seed", "11", "--profile", profile]).out
        let (population, generatedUsers) = SyncFixture.withUUIDUsers(generated, namespace: 2)
        let log = try SyncFixture.log(s, "ledger", profile: profile, story + "\n" + population)
        let db = try pg.createDatabase()
        let users = Array(storyUsers.values) + Array(generatedUsers.values)
        // The demo's instant (a first sync), then one after every generated event (an incremental sync: timers fired, events took effect).
        for (i, at) in [Self.at, "2026-04-15T00:00:00Z"].enumerated() {
            let r = SyncFixture.sync(log, profile, db, (i == 0 ? ["--init"] : []) + ["--at", at])
            #expect(r.status == 0, "\(r.err)")
            let report = Tool.json(r.out) as! [String: Any]
            #expect(report["full"] as? Bool == (i == 0) && (report["skipped"] as? [Any])?.isEmpty == true)
            try expectRowsEqualState(log, profile, db, users: users, at: at)
            // The checkpoint names the log's head.
            let head = Tool.run(["verify", "--log", log]).out
            let checkpoint = try pg.rows(db, "SELECT log_position, log_chain_hash FROM ledger_checkpoint;")
            #expect(checkpoint.count == 1 && head.contains(checkpoint[0][1]) && report["position"] as? Int == Int(checkpoint[0][0]))
        }
        if profile == "tomo" { #expect(try pg.rows(db, "SELECT count(*) FROM profiles;") == [["\(users.count)"]]) }
    }

    /// A user id a uuid column cannot hold is reported (stderr, JSON, ledger_sync_skipped), not
    /// dropped silently; HowRU keys rows by RevenueCat id, so its rows are there with a NULL
    /// user_id, and ids with quotes, backslashes and tabs come back byte for byte.
    @Test func nonUUIDUsersAreReportedNotDropped() throws {
        let s = Scratch()
        let mm = try SyncFixture.log(s, "mm", profile: "mirrormate", try String(contentsOfFile: Tool.packageRoot + "/events/mirrormate.jsonl", encoding: .utf8))
        let db = try pg.createDatabase()
        let r = SyncFixture.sync(mm, "mirrormate", db, ["--init", "--at", Self.at])
        #expect(r.status == 0 && r.err.contains("skipped user 'tom'"), "\(r.err)")
        let skipped = (Tool.json(r.out) as! [String: Any])["skipped"] as! [[String: Any]]
        #expect(skipped.map { $0["user"] as! String } == ["tom"])
        #expect(try pg.rows(db, "SELECT ledger_user FROM ledger_sync_skipped WHERE target = 'mirrormate';") == [["tom"]])
        #expect(try pg.rows(db, "SELECT count(*) FROM subscriptions;") == [["0"]])

        let odd = #"o'hara\\x y \"q\""#   // JSON for: o'hara\x y "q" (ids may hold no control character)
        let story = try String(contentsOfFile: Tool.packageRoot + "/events/howru.jsonl", encoding: .utf8)
            + "\n" + #"{"id":"odd-1","type":"purchase","user":"\#(odd)","time":"2026-02-01T10:00:00Z","data":{"product":"howru_premium_monthly","transaction":"odd-t1","expires":"2026-03-01T10:00:00Z"}}"#
        let hr = try SyncFixture.log(s, "hr", profile: "howru", story)
        let db2 = try pg.createDatabase()
        #expect(SyncFixture.sync(hr, "howru", db2, ["--init", "--at", Self.at]).status == 0)
        let rows = try pg.rows(db2, "SELECT encode(convert_to(revenue_cat_id, 'UTF8'), 'hex'), user_id IS NULL, plan FROM subscriptions ORDER BY 1;")
        let hex = { (s: String) in s.utf8.map { String(format: "%02x", $0) }.joined() }
        #expect(rows == [[hex("maria"), "t", "family"], [hex("noah"), "t", "family"], [hex("o'hara\\x y \"q\""), "t", "premium"]].sorted { $0[0] < $1[0] })
    }

    /// Seed 000's functions, installed unchanged, answer from the synced table at the database's
    /// own clock: premium while the ledger says trial or Pro (active), not after a refund or an
    /// expiry, and (as seed 000 wrote it) not in grace_period; get_user_subscription's fields are the row's.
    @Test func mirrormateSeedFunctionsAnswerFromTheSyncedTable() throws {
        let s = Scratch()
        let now = Date()
        let product = #""product":"com.mirrormate.premium.monthly""#
        let u = (1...7).map { SyncFixture.uuid(7, $0) }
        func buy(_ i: Int, _ user: String, at: Double, expires: Double, trial: Bool = false) -> String {
            let exp = SyncFixture.rfc3339(now.addingTimeInterval(expires * 3600))
            return SyncFixture.event("b\(i)", "purchase", user, now, hours: at, #"{\#(product),"transaction":"t\#(i)","expires":"\#(exp)"\#(trial ? #","offer":"free_trial""# : "")}"#)
        }
        let lines = [
            buy(1, u[0], at: -72, expires: 27 * 24),                                     // pro
            buy(2, u[1], at: -24, expires: 6 * 24, trial: true),                        // trial
            buy(3, u[2], at: -240, expires: 20 * 24), SyncFixture.event("c3", "cancellation", u[2], now, hours: -24),  // cancelled, still Pro
            buy(4, u[3], at: -240, expires: 20 * 24), SyncFixture.event("g4", "billing_issue", u[3], now, hours: -24), // billing grace
            buy(5, u[4], at: -120, expires: 25 * 24), SyncFixture.event("r5", "refund", u[4], now, hours: -24, #"{"transaction":"t5"}"#),
            buy(6, u[5], at: -960, expires: -240), SyncFixture.event("e6", "expiration", u[5], now, hours: -240),
            SyncFixture.event("a7", "account_created", u[6], now, hours: -24),
        ]
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", lines.joined(separator: "\n"))
        let db = try pg.createDatabase()
        let r = SyncFixture.sync(log, "mirrormate", db, ["--init"], now: nil)
        #expect(r.status == 0, "\(r.err)")
        let at = SyncFixture.rfc3339(now.addingTimeInterval(1))
        var premiums: [String] = []
        for user in u {
            let state = try SyncFixture.state(log, "mirrormate", user, at: at)
            let premium = try pg.rows(db, "SELECT is_user_premium('\(user)');")
            premiums.append(premium.first?.first ?? "?")
            #expect(premium == [[["trial", "pro"].contains(state["planState"] as! String) ? "t" : "f"]], "\(user): \(state)")
            let sub = try pg.rows(db, "SELECT is_premium, status, \(SyncFixture.utc("expires_at")), is_trial, days_remaining FROM get_user_subscription('\(user)');")
            let row = try pg.rows(db, "SELECT status, \(SyncFixture.utc("expires_at")), is_trial FROM subscriptions WHERE user_id = '\(user)';")
            #expect(sub.map { Array($0[1...3]) } == row, "\(user)")
            if let first = sub.first { #expect(first[0] == premium[0][0] && Int(first[4])! >= 0) }
        }
        #expect(premiums == ["t", "t", "t", "f", "f", "f", "f"])
        #expect(try pg.rows(db, "SELECT status, cancelled_at IS NOT NULL FROM subscriptions ORDER BY user_id;")
                == [["active", "f"], ["active", "f"], ["active", "t"], ["grace_period", "f"], ["cancelled", "t"], ["expired", "f"]])
    }

    /// MirrorMate's cancelled_at is when a cancellation turned auto-renew off, while it stays off
    /// (an uncancellation clears it, in a first and in an incremental sync); without one, when a
    /// refund or revoke withdrew access; else NULL.
    @Test func mirrormateCancelledAtIsWhenAutoRenewWasTurnedOff() throws {
        let s = Scratch()
        let u = (1...5).map { SyncFixture.uuid(8, $0) }
        func at(_ d: Double) -> Double { d * 24 }
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", [
            purchase(1, u[0], at: 0, days: 30), SyncFixture.event("c1", "cancellation", u[0], Self.t0, hours: at(2)),
            SyncFixture.event("c1b", "cancellation", u[0], Self.t0, hours: at(3)),                      // already off: keeps day 2
            purchase(2, u[1], at: 0, days: 30), SyncFixture.event("c2", "cancellation", u[1], Self.t0, hours: at(2)),
            SyncFixture.event("n2", "uncancellation", u[1], Self.t0, hours: at(3)),
            purchase(3, u[2], at: 0, days: 30), SyncFixture.event("r3", "refund", u[2], Self.t0, hours: at(4), #"{"transaction":"t3"}"#),
            purchase(4, u[3], at: 0, days: 30), SyncFixture.event("c4", "cancellation", u[3], Self.t0, hours: at(1)),
            SyncFixture.event("r4", "refund", u[3], Self.t0, hours: at(4), #"{"transaction":"t4"}"#),
            purchase(5, u[4], at: 0, days: 30),
        ].joined(separator: "\n"))
        let db = try pg.createDatabase()
        func cancelledAt() throws -> [String] {
            try u.map { user in try pg.rows(db, "SELECT \(SyncFixture.utc("cancelled_at")), 1 FROM subscriptions WHERE user_id = '\(user)';").first?.first ?? "no row" }
        }
        let first = SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", day(5)])
        #expect(first.status == 0, "\(first.err)")
        let firstRows = try cancelledAt()
        #expect(firstRows == [day(2), "", day(4), day(1), ""], "\(firstRows)")
        #expect(try pg.rows(db, "SELECT status, auto_renew_enabled FROM subscriptions ORDER BY user_id;")
                == [["active", "f"], ["active", "t"], ["cancelled", "f"], ["cancelled", "f"], ["active", "t"]])

        // Incremental: u[0] turns auto-renew back on, u[4] turns it off.
        try SyncFixture.append(s, log, profile: "mirrormate", SyncFixture.event("n1", "uncancellation", u[0], Self.t0, hours: at(6)))
        try SyncFixture.append(s, log, profile: "mirrormate", SyncFixture.event("c5", "cancellation", u[4], Self.t0, hours: at(6.5)))
        let second = SyncFixture.sync(log, "mirrormate", db, ["--at", day(7)])
        #expect(second.status == 0, "\(second.err)")
        #expect((Tool.json(second.out) as? [String: Any])?["updated"] as? Int == 2)
        let secondRows = try cancelledAt()
        #expect(secondRows == ["", "", day(4), day(1), day(6.5)], "\(secondRows)")
    }
}

/// What a sync writes and when: only what changed, nothing for nothing new, refusals that leave the
/// table as it was.
extension PostgresSync {
    static let product = #""product":"com.mirrormate.premium.monthly""#
    static let t0 = Date(timeIntervalSince1970: 1_767_261_600)   // 2026-01-01T10:00:00Z

    func day(_ d: Double) -> String { SyncFixture.rfc3339(Self.t0.addingTimeInterval(d * 86400)) }

    func purchase(_ n: Int, _ user: String, at: Double, days: Double, trial: Bool = false) -> String {
        SyncFixture.event("p\(n)", "purchase", user, Self.t0, hours: at * 24,
                          #"{\#(Self.product),"transaction":"t\#(n)","expires":"\#(day(at + days))"\#(trial ? #","offer":"free_trial""# : "")}"#)
    }

    /// updated_at of every row, by user.
    func updatedAt(_ db: String) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try pg.rows(db, "SELECT user_id, updated_at FROM subscriptions;").map { ($0[0], $0[1]) })
    }

    /// After a first sync, appends for one user make the next sync examine and write that user only;
    /// a trial that ends (a timer, no event) makes the next one write that user only; a sync with
    /// nothing new runs no transaction (the checkpoint's synced_at stays); an event that takes
    /// effect later is written when it does.
    @Test func incrementalSyncWritesOnlyTheUsersThatChanged() throws {
        let s = Scratch()
        let u = (1...4).map { SyncFixture.uuid(3, $0) }
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", [
            purchase(1, u[0], at: 0, days: 7, trial: true), purchase(2, u[1], at: 0, days: 30), purchase(3, u[2], at: 0, days: 30),
            SyncFixture.event("a4", "account_created", u[3], Self.t0, hours: 1),
        ].joined(separator: "\n"))
        let db = try pg.createDatabase()
        func sync(_ at: String) throws -> [String: Any] {
            let r = SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", at])
            guard r.status == 0 else { throw FixtureError(r.err) }
            return Tool.json(r.out) as! [String: Any]
        }
        let first = try sync(day(1))
        #expect(first["inserted"] as? Int == 3 && first["usersExamined"] as? Int == 4)
        let before = try updatedAt(db)

        try SyncFixture.append(s, log, profile: "mirrormate", SyncFixture.event("c2", "cancellation", u[1], Self.t0, hours: 36))
        let second = try sync(day(2))
        #expect(second["usersExamined"] as? Int == 1 && second["updated"] as? Int == 1 && second["inserted"] as? Int == 0)
        let afterCancel = try updatedAt(db)
        #expect(afterCancel[u[1]] != before[u[1]] && afterCancel[u[0]] == before[u[0]] && afterCancel[u[2]] == before[u[2]])
        #expect(try pg.rows(db, "SELECT auto_renew_enabled FROM subscriptions WHERE user_id = '\(u[1])';") == [["f"]])

        // Day 9: u[0]'s trial ended on day 7 and its unverified grace on day 8: no event, one row.
        let third = try sync(day(9))
        #expect(third["usersExamined"] as? Int == 1 && third["updated"] as? Int == 1)
        let afterTimer = try updatedAt(db)
        #expect(afterTimer[u[0]] != afterCancel[u[0]] && afterTimer[u[1]] == afterCancel[u[1]] && afterTimer[u[2]] == afterCancel[u[2]])
        #expect(try pg.rows(db, "SELECT status FROM subscriptions WHERE user_id = '\(u[0])';") == [["expired"]])

        // Nothing new: no transaction at all.
        let synced = try pg.rows(db, "SELECT synced_at, as_of FROM ledger_checkpoint;")
        let fourth = try sync(day(9))
        #expect(fourth["upToDate"] as? Bool == true && fourth["usersExamined"] as? Int == 0)
        #expect(try pg.rows(db, "SELECT synced_at, as_of FROM ledger_checkpoint;") == synced && (try updatedAt(db)) == afterTimer)

        // An expiration dated day 12, appended now: examined (a new record) but not in effect on day 10; written on day 13.
        try SyncFixture.append(s, log, profile: "mirrormate", SyncFixture.event("e3", "expiration", u[2], Self.t0, hours: 12 * 24))
        let fifth = try sync(day(10))
        #expect(fifth["usersExamined"] as? Int == 1 && fifth["updated"] as? Int == 0)
        let sixth = try sync(day(13))
        #expect(sixth["usersExamined"] as? Int == 1 && sixth["updated"] as? Int == 1)
        #expect(try pg.rows(db, "SELECT status FROM subscriptions WHERE user_id = '\(u[2])';") == [["expired"]])
        // An --at before the checkpoint's instant would undo fired timers: refused.
        let back = SyncFixture.sync(log, "mirrormate", db, ["--at", day(5)])
        #expect(back.status == 1 && back.err.contains("--rebuild"))
    }

    /// A profile with other rules (billing grace 1 day instead of 3, same name) is refused while
    /// the table was synced under the old ones (exit 1, table unchanged); --rebuild rewrites the
    /// rows that differ and records the new fingerprint. A table synced from another log is refused
    /// too, and --rebuild replaces it from this log.
    @Test func ruleChangeIsRefusedUntilRebuild() throws {
        let s = Scratch()
        let u = (1...3).map { SyncFixture.uuid(4, $0) }
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", [
            purchase(1, u[0], at: 0, days: 30), SyncFixture.event("g1", "billing_issue", u[0], Self.t0, hours: 5 * 24),
            purchase(2, u[1], at: 0, days: 30), purchase(3, u[2], at: 0, days: 30),
        ].joined(separator: "\n"))
        let db = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "mirrormate", db, ["--init", "--at", day(7)]).status == 0)
        #expect(try pg.rows(db, "SELECT status FROM subscriptions WHERE user_id = '\(u[0])';") == [["grace_period"]])
        let before = try SyncFixture.snapshot(pg, db)
        let updated = try updatedAt(db)

        let grace1 = s.path + "/grace1.json"
        try Tool.run(["profiles", "show", "mirrormate"]).out
            .replacingOccurrences(of: #""billingGraceDays" : 3"#, with: #""billingGraceDays" : 1"#).write(toFile: grace1, atomically: true, encoding: .utf8)
        let refused = SyncFixture.sync(log, grace1, db, ["--at", day(7)])
        #expect(refused.status == 1 && refused.err.contains("other rules") && refused.err.contains("--rebuild"), "\(refused.err)")
        #expect(refused.err.split(separator: "\n").count == 1)
        #expect(try SyncFixture.snapshot(pg, db) == before)

        let rebuilt = SyncFixture.sync(log, grace1, db, ["--rebuild", "--at", day(7)])
        #expect(rebuilt.status == 0, "\(rebuilt.err)")
        let report = Tool.json(rebuilt.out) as! [String: Any]
        #expect(report["full"] as? Bool == true && report["updated"] as? Int == 1 && report["inserted"] as? Int == 0)
        #expect(try pg.rows(db, "SELECT status FROM subscriptions WHERE user_id = '\(u[0])';") == [["expired"]])
        let after = try updatedAt(db)
        #expect(after[u[1]] == updated[u[1]] && after[u[2]] == updated[u[2]] && after[u[0]] != updated[u[0]])
        #expect(SyncFixture.sync(log, grace1, db, ["--at", day(7)]).status == 0)

        // Another log (one user, other events): refused, then replaced by --rebuild.
        let other = try SyncFixture.log(s, "other", profile: "mirrormate", purchase(9, u[2], at: 1, days: 30))
        let foreign = SyncFixture.sync(other, grace1, db, ["--at", day(7)])
        #expect(foreign.status == 1 && foreign.err.contains("another log"), "\(foreign.err)")
        #expect(SyncFixture.sync(other, grace1, db, ["--rebuild", "--at", day(7)]).status == 0)
        #expect(try pg.rows(db, "SELECT user_id, transaction_id FROM subscriptions;") == [[u[2], "t9"]])
    }

    /// A database that refuses the connection: one line naming why, exit 1, the log untouched.
    /// A database without the schema: exit 1, naming --init.
    @Test func refusedConnectionIsOneLineAndLosesNothing() throws {
        let s = Scratch()
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", purchase(1, SyncFixture.uuid(5, 1), at: 0, days: 30))
        let export = Tool.run(["export", "--log", log]).out
        let r = SyncFixture.sync(log, "mirrormate", "host=\(s.path)/no-server user=postgres dbname=x", ["--init"])
        #expect(r.status == 1 && r.out.isEmpty)
        #expect(r.err.split(separator: "\n").count == 1 && r.err.hasPrefix("replay-tool sync: ") && r.err.contains("no-server"), "\(r.err)")
        #expect(Tool.run(["export", "--log", log]).out == export && Tool.run(["verify", "--log", log]).status == 0)

        let noSchema = SyncFixture.sync(log, "mirrormate", try pg.createDatabase(), [])
        #expect(noSchema.status == 1 && noSchema.err.contains("--init"), "\(noSchema.err)")
        let handz = SyncFixture.sync(log, "handz", try pg.createDatabase(), ["--init"])
        #expect(handz.status == 2 && handz.err.contains("no PostgreSQL tables"))
        // MirrorMate and HowRU both own a `subscriptions` table: one database each.
        let mirrormate = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "mirrormate", mirrormate, ["--init"]).status == 0)
        // A log holds one app: HowRU's profile on this MirrorMate log is refused before any database work.
        let refused = SyncFixture.sync(log, "howru", mirrormate, ["--init"])
        #expect(refused.status == 2 && refused.err.contains("holds MirrorMate's events"), "\(refused.err)")
        let howruText = SyncFixture.withUUIDUsers(Tool.run(["generate", "--users", "5", "--seed", "4", "--profile", "howru"]).out, namespace: 13).text
        let howruLog = try SyncFixture.log(s, "howru", profile: "howru", howruText)
        let howru = SyncFixture.sync(howruLog, "howru", mirrormate, ["--init"])
        #expect(howru.status == 1 && howru.err.contains("of its own"), "\(howru.err)")
        // Without --init, in a database set up for another app: the missing table, and the way out.
        let sample = try String(contentsOfFile: Tool.packageRoot + "/events/tomo.jsonl", encoding: .utf8)
        let tomoLog = try SyncFixture.log(s, "tomo", profile: "tomo", SyncFixture.withUUIDUsers(sample, namespace: 12).text)
        let tomo = SyncFixture.sync(tomoLog, "tomo", mirrormate, [])
        #expect(tomo.status == 1 && tomo.err.split(separator: "\n").count == 1 && tomo.err.contains(#"relation "profiles" does not exist"#)
                && tomo.err.contains("--init` applies its schema"), "\(tomo.err)")
        // A psql that is not there: one line saying so, not a Foundation error dump.
        let missing = Tool.run(["sync", "--log", log, "--profile", "mirrormate", "--postgres", mirrormate],
                               via: ["/usr/bin/env", "REPLAY_TOOL_PSQL=/nonexistent/psql"])
        #expect(missing.status == 1 && missing.err == "replay-tool sync: cannot run /nonexistent/psql: No such file or directory (REPLAY_TOOL_PSQL or PATH names the psql to run)\n", "\(missing.err)")
    }

    /// A statement the database refuses in the middle of a run (TOMO's tier check, under a
    /// profile whose Pro tier is named otherwise): exit 1 with the database's reason, and the
    /// rows and checkpoint are the previous run's, whole.
    @Test func constraintViolationKeepsThePreviousState() throws {
        let s = Scratch()
        let sample = try String(contentsOfFile: Tool.packageRoot + "/events/tomo.jsonl", encoding: .utf8)
        let log = try SyncFixture.log(s, "ledger", profile: "tomo", SyncFixture.withUUIDUsers(sample, namespace: 10).text)
        let db = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "tomo", db, ["--init", "--at", Self.at]).status == 0)
        let state = "SELECT (SELECT string_agg(concat_ws(',', id, subscription_tier, subscription_expires_at, subscription_updated_at), ';') FROM profiles), (SELECT log_position || rules_fingerprint || as_of FROM ledger_checkpoint);"
        let before = try pg.rows(db, state)
        #expect(before.first?.first?.contains(",pro,") == true)
        let gold = s.path + "/gold.json"
        try Tool.run(["profiles", "show", "tomo"]).out.replacingOccurrences(of: #""pro""#, with: #""gold""#)
            .write(toFile: gold, atomically: true, encoding: .utf8)
        let r = SyncFixture.sync(log, gold, db, ["--rebuild", "--at", Self.at])
        #expect(r.status == 1 && r.err.contains("subscription_tier_check") && r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(try pg.rows(db, state) == before)
    }

    /// Two syncs of the same target at once: the second waits for the first's transaction, then
    /// either finds nothing to do or refuses (the checkpoint moved: exit 1, nothing written);
    /// the table ends as one sync alone leaves it.
    @Test func concurrentSyncsCommitOnce() throws {
        let s = Scratch()
        let (text, _) = SyncFixture.withUUIDUsers(Tool.run(["generate", "--users", "300", "--seed", "4", "--profile", "mirrormate"]).out, namespace: 9)
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", text)
        let empty = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "mirrormate", empty, ["--init", "--at", "2026-01-01T00:00:00Z"]).status == 0)
        let args = ["sync", "--log", log, "--profile", "mirrormate", "--at", "2026-03-01T00:00:00Z", "--postgres"]
        let reference = try pg.createDatabase(copying: empty)
        #expect(Tool.run(args + [reference]).status == 0)
        let expected = try SyncFixture.snapshot(pg, reference)
        for round in 0..<3 {
            let db = try pg.createDatabase(copying: empty)
            let pids = (0..<2).compactMap { TestPostgres.start([Tool.binary] + args + [db], output: s.path + "/c\(round)-\($0).out") }
            let statuses = pids.map(TestPostgres.wait)
            let errs = (0..<2).map { (try? String(contentsOfFile: s.path + "/c\(round)-\($0).out", encoding: .utf8)) ?? "" }
            #expect(statuses.contains(0), "\(errs)")
            for (status, err) in zip(statuses, errs) where status != 0 { #expect(status == 1 && err.contains("another sync committed meanwhile"), "\(err)") }
            #expect(try SyncFixture.snapshot(pg, db) == expected)
        }
    }

    /// A log imported under another app's profile names products this app does not sell: refused,
    /// nothing written (its users would read as this app's subscribers).
    @Test func aLogOfAnotherAppIsRefusedNotWrittenIntoThisAppsTable() throws {
        let s = Scratch()
        let (text, _) = SyncFixture.withUUIDUsers(Tool.run(["generate", "--users", "60", "--seed", "3", "--profile", "howru"]).out, namespace: 11)
        let log = try SyncFixture.log(s, "ledger", profile: "howru", text)
        let db = try pg.createDatabase()
        let r = SyncFixture.sync(log, "mirrormate", db, ["--init"])
        #expect(r.status == 2 && r.err.contains("holds HowRU's events") && r.err.contains("profile 'mirrormate' is for MirrorMate"), "\(r.err)")
        #expect(try pg.rows(db, "SELECT count(*) FROM pg_tables WHERE tablename = 'subscriptions'") == [["0"]])
        #expect(SyncFixture.sync(log, "howru", try pg.createDatabase(), ["--init"]).status == 0)
    }

    /// Two syncs to different instants at once, with nothing new in the log: the one that read a
    /// checkpoint another has since replaced never commits, so the table never goes back in time
    /// (a sync to March then one to February that read the January checkpoint would undo timers).
    @Test func concurrentSyncsToDifferentInstantsNeverMoveTheTableBack() throws {
        let s = Scratch()
        let (text, _) = SyncFixture.withUUIDUsers(Tool.run(["generate", "--users", "300", "--seed", "4", "--profile", "mirrormate"]).out, namespace: 10)
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", text)
        let empty = try pg.createDatabase()
        #expect(SyncFixture.sync(log, "mirrormate", empty, ["--init", "--at", "2026-01-01T00:00:00Z"]).status == 0)
        let instants = ["2026-03-01T00:00:00Z", "2026-02-01T00:00:00Z"]
        let args = { (at: String) in ["sync", "--log", log, "--profile", "mirrormate", "--at", at, "--postgres"] }
        var expected: [String: String] = [:]
        for at in instants {
            let reference = try pg.createDatabase(copying: empty)
            #expect(Tool.run(args(at) + [reference]).status == 0)
            expected[at] = try SyncFixture.snapshot(pg, reference)
        }
        #expect(expected[instants[0]] != expected[instants[1]], "the two instants must give different tables for the test to mean anything")
        for round in 0..<4 {
            let db = try pg.createDatabase(copying: empty)
            let order = round % 2 == 0 ? instants : instants.reversed()
            let pids = order.enumerated().compactMap { TestPostgres.start([Tool.binary] + args($0.element) + [db], output: s.path + "/d\(round)-\($0.offset).out") }
            let succeeded = zip(pids, order).compactMap { TestPostgres.wait($0.0) == 0 ? $0.1 : nil }
            // Whatever committed, the table is the one of the latest instant that did.
            let latest = try #require(succeeded.max(), "round \(round): neither sync committed")
            #expect(try SyncFixture.snapshot(pg, db) == expected[latest], "round \(round): \(succeeded)")
        }
    }
}

/// kill -9 of a sync at many moments: the database shows the old rows with the old checkpoint or
/// the new rows with the new one, never a mix; the next run continues from what it shows.
extension PostgresSync {
    /// The direct children of a process (its psql).
    static func children(of pid: pid_t) -> [pid_t] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func killDuringSyncLeavesOldOrNewNeverAMix() throws {
        let s = Scratch()
        let (first, _) = SyncFixture.withUUIDUsers(Tool.run(["generate", "--users", "800", "--seed", "5", "--profile", "mirrormate"]).out, namespace: 6)
        let log = try SyncFixture.log(s, "ledger", profile: "mirrormate", first)
        let empty = try pg.createDatabase()
        let initialized = SyncFixture.sync(log, "mirrormate", empty, ["--init", "--at", "2026-01-01T00:00:00Z"])
        #expect(initialized.status == 0, "\(initialized.err)")
        let base = try pg.createDatabase(copying: empty)
        #expect(SyncFixture.sync(log, "mirrormate", base, ["--at", "2026-02-01T00:00:00Z"]).status == 0)
        let (more, _) = SyncFixture.withUUIDUsers(Tool.run(["generate", "--users", "300", "--seed", "9", "--profile", "mirrormate"]).out, namespace: 8)
        try SyncFixture.append(s, log, profile: "mirrormate", more)
        let args = ["sync", "--log", log, "--profile", "mirrormate", "--at", "2026-03-15T00:00:00Z", "--postgres"]

        // The outcomes a run may leave: from the empty table (a first sync) and from base (an incremental one).
        var outcomes: [String: (old: String, new: String)] = [:]
        var duration = 0.0
        for start in [empty, base] {
            let reference = try pg.createDatabase(copying: start)
            let began = Date()
            #expect(Tool.run(args + [reference]).status == 0)
            duration = max(duration, Date().timeIntervalSince(began))
            outcomes[start] = (try SyncFixture.snapshot(pg, start), try SyncFixture.snapshot(pg, reference))
        }
        #expect(outcomes[empty]!.old != outcomes[empty]!.new && outcomes[base]!.old != outcomes[base]!.new)

        var seen: [String: Int] = [:]
        for k in 0..<10 {
            let start = k % 2 == 0 ? base : empty
            let db = try pg.createDatabase(copying: start)
            guard let pid = TestPostgres.start([Tool.binary] + args + [db], output: s.path + "/kill-\(k).out") else { throw FixtureError("cannot start the tool") }
            usleep(UInt32(duration * 1e6 * Double(k / 2) / 4))
            let psql = Self.children(of: pid)
            kill(pid, SIGKILL)
            if k % 4 >= 2 { for c in psql { kill(c, SIGKILL) } }   // and psql with it, four times of ten
            _ = TestPostgres.wait(pid)
            try pg.waitForNoSessions(db)
            let after = try SyncFixture.snapshot(pg, db)
            let (old, new) = outcomes[start]!
            #expect(after == old || after == new, "kill \(k) after \(Double(k / 2) / 4) of a run left \(after)")
            seen[after == old ? "old" : "new", default: 0] += 1
            // The next run continues from what the database shows.
            #expect(Tool.run(args + [db]).status == 0)
            #expect(try SyncFixture.snapshot(pg, db) == new)
        }
        #expect(seen["old", default: 0] > 0)
        print("killDuringSync: outcomes \(seen), a run took \(duration) s")
    }
}
