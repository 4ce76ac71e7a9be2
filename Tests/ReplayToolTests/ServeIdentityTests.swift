import Foundation
import Testing
import TestKit

/// A RevenueCat subscriber first seen anonymous and later identified is one subscriber, through
/// `import --from revenuecat` and through `serve`'s webhook; and `serve`'s kept entitlements
/// answers follow every commit that can change them.
@Suite struct ServeIdentity {
    static let anonymous = "$RCAnonymousID:3b1f0c9e5d7a4e2f8c6b0a9d1e2f3a4b"
    static let known = "u_42"

    /// A RevenueCat webhook body for handz's monthly product, at `ms` (milliseconds since 1970).
    static func webhook(_ id: String, _ type: String, user: String, aliases: [String], at ms: Int64, _ extra: String = "") -> String {
        let list = aliases.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"api_version":"1.0","event":{"id":"\#(id)","type":"\#(type)","app_user_id":"\#(user)","original_app_user_id":"\#(anonymous)","aliases":[\#(list)],"product_id":"handz.pro.monthly","transaction_id":"t-\#(id)","original_transaction_id":"t-rc-1","event_timestamp_ms":\#(ms),"purchased_at_ms":\#(ms),"expiration_at_ms":\#(ms + 30 * 86_400_000),"store":"APP_STORE","environment":"PRODUCTION","price":9.99,"currency":"USD","period_type":"NORMAL"\#(extra)}}"#
    }

    @Test func importFromRevenueCatGivesTheIdentifiedIdTheAnonymousHistory() throws {
        let s = Scratch()
        let t0: Int64 = 1_767_225_600_000   // 2026-01-01
        let lines = [
            Self.webhook("rc-1", "INITIAL_PURCHASE", user: Self.anonymous, aliases: [Self.anonymous], at: t0),
            Self.webhook("rc-2", "CANCELLATION", user: Self.known, aliases: [Self.anonymous, Self.known], at: t0 + 86_400_000, #","cancel_reason":"UNSUBSCRIBE""#),
        ]
        let file = s.path + "/webhooks.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = Tool.run(["import", "--log", s.log, "--from", "revenuecat", file])
        #expect(imported.status == 0, "\(imported.err)")
        let at = "2026-01-05T00:00:00Z"
        func state(_ user: String) -> [String: Any]? {
            Tool.json(Tool.run(["state", "--log", s.log, "--user", user, "--at", at, "--format", "json"]).out) as? [String: Any]
        }
        let identified = try #require(state(Self.known)), anonymous = try #require(state(Self.anonymous))
        #expect(identified["planState"] as? String == "pro" && identified["autoRenew"] as? Bool == false, "\(identified)")
        var same = identified
        same["user"] = Self.anonymous
        #expect(try Serve.canonical(same) == Serve.canonical(anonymous), "one subscriber under both ids")
        let history = Tool.run(["history", "--log", s.log, "--user", Self.known, "--at", at, "--format", "json"])
        #expect(history.status == 0 && history.out.contains("\"rc-1\"") && history.out.contains("\"rc-2\""), "\(history.out.prefix(400))")
        // The anonymous stream holds both; the identified id has no stream of its own.
        let export = Tool.run(["export", "--log", s.log]).out
        #expect(export.split(separator: "\n").count == 2 && export.contains(#""appUserId":"u_42""#), "\(export)")
    }

    @Test func serveAnswersTheIdentifiedIdFromTheAnonymousHistoryAndDropsKeptAnswersOnEachCommit() throws {
        let served = try ServedLedger(profile: "handz")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func post(_ body: String) throws {
            let r = try served.request("POST", "/billing/webhook", token: ServedLedger.webhookSecret, body: body)
            #expect(r.status == 200 && r.json?["duplicate"] as? Bool == false, "\(r.body)")
        }
        func status(_ user: String) throws -> String? {
            let r = try served.request("GET", "/billing/entitlements?user=\(user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? user)", token: ServedLedger.apiKey)
            #expect(r.status == 200, "\(r.body)")
            return r.json?["status"] as? String
        }
        try post(Self.webhook("rc-1", "INITIAL_PURCHASE", user: Self.anonymous, aliases: [Self.anonymous], at: now - 3_600_000))
        #expect(try status(Self.anonymous) == "active")
        #expect(try status(Self.known) == "free", "not identified yet")
        #expect(try status(Self.known) == "free", "the kept answer")
        // Identified: the cancellation comes under u_42, is filed under the anonymous id, and
        // drops u_42's kept answer (its alias) before the 200.
        try post(Self.webhook("rc-2", "CANCELLATION", user: Self.known, aliases: [Self.anonymous, Self.known], at: now - 60_000, #","cancel_reason":"UNSUBSCRIBE""#))
        #expect(try status(Self.known) == "cancelled")
        #expect(try status(Self.anonymous) == "cancelled")
        #expect(try status(Self.known) == "cancelled", "the kept answer")
        // A webhook under the anonymous id alone touches only its stream: the identified id's
        // kept answer read that stream, so it is dropped too.
        try post(Self.webhook("rc-3", "UNCANCELLATION", user: Self.anonymous, aliases: [Self.anonymous], at: now - 30_000))
        #expect(try status(Self.known) == "active")
        // state and history through serve: the same subscriber.
        let state = try served.request("GET", "/users/\(Self.known)/state", token: ServedLedger.apiKey)
        #expect(state.status == 200 && state.json?["planState"] as? String == "pro" && state.json?["autoRenew"] as? Bool == true, "\(state.body)")
        let history = try served.request("GET", "/users/\(Self.known)/history", token: ServedLedger.apiKey)
        #expect(history.status == 200 && ["rc-1", "rc-2", "rc-3"].allSatisfy { history.body.contains("\"\($0)\"") }, "\(history.body.prefix(300))")
        #expect(served.stop().status == 0)
        #expect(Tool.run(["verify", "--log", served.scratch.log]).status == 0)
    }

    /// An `import` into the log while serve runs commits between serve's own batches: serve sees
    /// the new head within its idle check and drops every kept answer, so the refunded user's
    /// entitlements change without any webhook of serve's own.
    @Test func anImportByAnotherProcessWhileServeRunsDropsTheKeptAnswers() throws {
        let served = try ServedLedger(profile: "handz")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func status(_ user: String) throws -> String? {
            let r = try served.request("GET", "/billing/entitlements?user=\(user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? user)", token: ServedLedger.apiKey)
            #expect(r.status == 200, "\(r.body)")
            return r.json?["status"] as? String
        }
        let purchase = try served.request("POST", "/billing/webhook", token: ServedLedger.webhookSecret,
                                          body: Self.webhook("rc-1", "INITIAL_PURCHASE", user: Self.anonymous, aliases: [Self.anonymous], at: now - 3_600_000))
        #expect(purchase.status == 200, "\(purchase.body)")
        #expect(try status(Self.anonymous) == "active")
        #expect(try status(Self.anonymous) == "active", "the kept answer")
        let file = served.scratch.path + "/refund.jsonl"
        try (Self.webhook("rc-2", "EXPIRATION", user: Self.anonymous, aliases: [Self.anonymous], at: now - 60_000, #","expiration_reason":"BILLING_ERROR""#) + "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = Tool.run(["import", "--log", served.scratch.log, "--from", "revenuecat", file])
        #expect(imported.status == 0, "\(imported.err)")
        // Bounded: asked until the answer changes or 10 s pass (serve looks every 100 ms when idle).
        let deadline = Date().addingTimeInterval(10)
        var seen = try status(Self.anonymous)
        while seen == "active" && Date() < deadline { seen = try status(Self.anonymous) }
        #expect(seen == "expired", "the answer kept from before the import: \(seen ?? "nil")")
        #expect(served.stop().status == 0)
    }
}
