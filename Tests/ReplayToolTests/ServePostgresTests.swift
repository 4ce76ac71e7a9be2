import Foundation
import Testing

/// `serve --postgres`: an acknowledged write reaches the seeds' tables (seed 000's
/// `is_user_premium()`, seed 001's `profiles` row) through the follower, which says on stderr
/// which log position the tables reflect.
@Suite(.enabled(if: TestPostgres.available, "needs initdb, pg_ctl and psql (PostgreSQL; .ci/run installs it)"), .timeLimit(.minutes(2)))
struct ServePostgres {
    var pg: TestPostgres { TestPostgres.shared! }

    static func rfc3339(_ d: Date) -> String { ISO8601DateFormatter().string(from: d) }

    /// Waits for the follower's line saying the tables reflect `position` or later.
    static func inStep(_ served: ServedLedger, through position: Int) -> Bool {
        served.waitForLine { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["postgres"] as? String == "in step" else { return false }
            return (o["position"] as? Int ?? 0) >= position
        } != nil
    }

    @Test func anAcknowledgedPurchaseMakesSeed000sUserPremium() throws {
        let db = try pg.createDatabase()
        let served = try ServedLedger(profile: "mirrormate", extra: ["--postgres", db])
        let user = "6f1c2d3e-5a4b-4c3d-9e2f-00000000c0de", now = Date()
        let purchase = #"{"id":"mm-1","type":"purchase","user":"\#(user)","time":"\#(Self.rfc3339(now - 3600))","data":{"product":"com.mirrormate.premium.monthly","transaction":"mm-t1","expires":"\#(Self.rfc3339(now + 29 * 86_400))","price":"9.99","currency":"USD"},"source":"store"}"#
        let ack = try served.request("POST", "/events", token: ServedLedger.apiKey, body: purchase)
        let position = try #require(ack.json?["last"] as? Int, "\(ack.body)")
        #expect(Self.inStep(served, through: position))
        #expect(try pg.rows(db, "SELECT is_user_premium('\(user)');") == [["t"]])
        let health = try served.request("GET", "/healthz")
        #expect(health.json?["postgres"] as? String == "in step")
        #expect(served.stop().status == 0)
    }

    @Test func aRevenueCatWebhookUpdatesSeed001sProfilesRow() throws {
        let db = try pg.createDatabase()
        let served = try ServedLedger(profile: "tomo", extra: ["--postgres", db])
        let user = "6f1c2d3e-5a4b-4c3d-9e2f-0000000070e0"
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let webhook = #"{"api_version":"1.0","event":{"id":"rc-tomo-1","type":"INITIAL_PURCHASE","app_user_id":"\#(user)","original_app_user_id":"\#(user)","product_id":"tomo.pro.monthly","transaction_id":"tt-1","original_transaction_id":"tt-1","event_timestamp_ms":\#(now),"purchased_at_ms":\#(now - 60_000),"expiration_at_ms":\#(now + 2_592_000_000),"store":"APP_STORE","environment":"PRODUCTION","price":4.99,"currency":"USD","period_type":"NORMAL"}}"#
        let ack = try served.request("POST", "/billing/webhook", token: ServedLedger.webhookSecret, body: webhook)
        let position = try #require(ack.json?["position"] as? Int, "\(ack.body)")
        #expect(Self.inStep(served, through: position))
        let state = try #require(Tool.json(Tool.run(["state", "--log", served.scratch.log, "--profile", "tomo", "--user", user, "--format", "json"], now: nil).out) as? [String: Any])
        let rows = try pg.rows(db, "SELECT subscription_tier, revenuecat_customer_id FROM profiles WHERE id = '\(user)';")
        #expect(rows == [[state["tier"] as? String ?? "?", user]] && state["planState"] as? String == "pro", "\(rows) vs \(state)")
        #expect(served.stop().status == 0)
    }
}
