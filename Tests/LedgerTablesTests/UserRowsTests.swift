import Testing
import Parquet
import SubscriptionDomain
@testable import LedgerTables

/// The `users` row: the fields of `state --format json` as of the instant, in the table's column
/// order, with `entitlements` a JSON array, `limits` a JSON object with sorted keys, and the rule
/// split into its id and sentence.
@Suite struct UserRowCells {
    static func row(_ lines: [String], at instant: String, profile: Profile = .handz) throws -> [String: ParquetValue] {
        let decider = PlanDecider(profile: profile)
        let state = try fold(lines, profile: profile).state
        var json: [UInt8] = [], row: [ParquetValue] = []
        UserRows.cells(decider.view(state, at: t(instant)), asOf: t(instant), json: &json, into: &row)
        let columns = LedgerTable.users.columns
        #expect(row.count == columns.count)
        for (value, column) in zip(row, columns) where value == .null { #expect(column.nullable, "\(column.name) is null but not nullable") }
        return Dictionary(uniqueKeysWithValues: zip(columns.map(\.name), row))
    }

    @Test("a trial user as of the trial: the trial's plan, entitlements, sorted limits and the rule that started it")
    func trialUser() throws {
        let r = try Self.row([PeriodFoldStories.buy("1", "a", "2026-01-01T10:00:00Z", txn: "a1", expires: "2026-01-08T10:00:00Z", trial: true)],
                             at: "2026-01-03T00:00:00Z")
        #expect(r["user"] == .string("a") && r["plan_state"] == .string("trial") && r["grace_reason"] == .null)
        #expect(r["entitlements"] == .string(#"["pro"]"#) && r["product"] == .string("handz.pro.monthly"))
        #expect(r["expires_at"] == TableCell.time(t("2026-01-08T10:00:00Z")) && r["auto_renew"] == .bool(true))
        #expect(r["trial_eligible"] == .bool(false) && r["tier"] == .string("pro"))
        #expect(r["limits"] == .string(#"{"practice":true,"uploads":true}"#))
        #expect(r["rule"] == .string(Rule.purchaseStartsTrial.id) && r["rule_summary"] == .string(Rule.purchaseStartsTrial.summary))
        #expect(r["as_of"] == TableCell.time(t("2026-01-03T00:00:00Z")))
    }

    @Test("billing grace: the reason and its end; after it, free with empty entitlements and the free tier's limits")
    func billingGraceUser() throws {
        let story = [PeriodFoldStories.buy("1", "b", "2026-01-02T09:00:00Z", txn: "b1", expires: "2026-02-02T09:00:00Z"),
                     ev("2", "billing_issue", "b", "2026-02-02T09:00:00Z")]
        let grace = try Self.row(story, at: "2026-02-03T00:00:00Z")
        #expect(grace["plan_state"] == .string("pro_grace") && grace["grace_reason"] == .string("billing"))
        #expect(grace["grace_ends_at"] == TableCell.time(t("2026-02-05T09:00:00Z")) && grace["billing_issue"] == .bool(true))
        let after = try Self.row(story, at: "2026-02-10T00:00:00Z")
        #expect(after["plan_state"] == .string("free") && after["entitlements"] == .string("[]") && after["grace_ends_at"] == .null)
        #expect(after["limits"] == .string(#"{"practice":false,"uploads":false}"#) && after["rule"] == .string(Rule.billingGraceEnded.id))
    }

    @Test("limits of counts and unlimited print as numbers and \"unlimited\", keys sorted")
    func mixedLimits() throws {
        let r = try Self.row([ev("1", "account_created", "9f0c0000-0000-4000-8000-000000000001", "2026-01-01T00:00:00Z")],
                             at: "2026-01-02T00:00:00Z", profile: .mirrormate)
        guard case .string(let limits) = r["limits"] else { Issue.record("limits is not text"); return }
        #expect(limits.hasPrefix(#"{"analysesPerDay":1,"basicMetrics":5,"bodyLanguageScores":0,"compareVideos":false,"#))
        #expect(r["plan_state"] == .string("free") && r["product"] == .null && r["auto_renew"] == .null && r["credits"] == .int64(0))
        let premium = try Self.row([ev("1", "purchase", "m", "2026-01-01T00:00:00Z",
                                       #"{"product":"com.mirrormate.premium.monthly","transaction":"m1","expires":"2026-02-01T00:00:00Z","price":"9.99","currency":"USD"}"#)],
                                   at: "2026-01-02T00:00:00Z", profile: .mirrormate)
        guard case .string(let text) = premium["limits"] else { Issue.record("limits is not text"); return }
        #expect(text.hasPrefix(#"{"analysesPerDay":"unlimited","#))
    }

    @Test("a user id and entitlements with quotes or control characters stay valid JSON text")
    func escapedText() throws {
        var view = PlanDecider(profile: .handz).view(SubscriberState(user: "q\"u\\o\nte"), at: t("2026-01-01T00:00:00Z"))
        view.entitlements = ["a\"b", "c\u{01}"]
        var json: [UInt8] = [], row: [ParquetValue] = []
        UserRows.cells(view, asOf: t("2026-01-01T00:00:00Z"), json: &json, into: &row)
        #expect(row[0] == .string("q\"u\\o\nte"), "the user cell is the id itself, not JSON")
        #expect(row[4] == .string(#"["a\"b","c\u0001"]"#))
    }
}
