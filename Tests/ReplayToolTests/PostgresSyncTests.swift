import Foundation
import Testing

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
                    SELECT product_id, status, \(SyncFixture.utc("expires_at")), auto_renew_enabled FROM subscriptions
                    WHERE user_id = '\(user)';
                    """)
                guard let product else { #expect(rows.isEmpty, "\(user) has no subscription but a row"); continue }
                #expect(rows.count == 1, "\(user): \(rows)")
                guard let r = rows.first else { continue }
                let status = ["trial": "active", "pro": "active", "pro_grace": "grace_period"][planState]
                #expect(r[0] == product && r[2] == expires && r[3] == ((autoRenew ?? false) ? "t" : "f"), "\(user): \(r) vs \(s)")
                if let status { #expect(r[1] == status, "\(user): \(r[1]) for \(planState)") } else { #expect(["expired", "cancelled"].contains(r[1])) }
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
        let generated = Tool.run(["generate", "--users", "25", "--seed", "11", "--profile", profile]).out
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
                == [["active", "f"], ["active", "f"], ["active", "f"], ["grace_period", "f"], ["cancelled", "t"], ["expired", "f"]])
    }
}
