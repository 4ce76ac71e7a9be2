import Foundation
import Testing
import TestKit

/// `metrics` and `users` through the built tool: partition logs answer as the single log, byte for
/// byte; the figures agree with `revenue` and `funnel`; lists page; bad values are usage errors.
@Suite struct MetricsCommands {
    static let now = "2026-06-01T00:00:00Z"

    @discardableResult
    static func tool(_ args: [String], status: Int32 = 0) -> ToolRun {
        Tool.expecting(status, args, now: now)
    }

    static func object(_ s: String) -> [String: Any] { Tool.object(s) }

    @Test(.timeLimit(.minutes(5))) func overPartitionLogsEveryMetricAndListIsTheSingleLogsByteForByte() throws {
        let s = Scratch()
        let (whole, parts) = Tool.partitionedPopulation(in: s.path, users: 400, seed: 11, now: Self.now)
        let asked: [[String]] = [
            ["metrics", "--at", "2026-05-01T00:00:00Z"],
            ["metrics", "--by", "month", "--by-segment", "product", "--lifetime", "90d"],
            ["metrics", "--from", "2026-02-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z", "--by-segment", "offer", "--within", "3d"],
            ["users", "--where", "planState=pro", "--at", "2026-04-01T00:00:00Z"],
            ["users", "--where", "churnedSince=2026-03-01T00:00:00Z", "--limit", "5"],
        ]
        for args in asked {
            let single = Self.tool(args + ["--log", whole, "--format", "json"]).out
            let merged = Self.tool(args + parts.flatMap { ["--log", $0] } + ["--format", "json"]).out
            #expect(single == merged, "\(args.joined(separator: " "))")
            #expect(single.count > 100, "\(args.joined(separator: " ")) printed \(single)")
        }
        // The stocks at --at are revenue's; the trials are the funnel's.
        let metrics = Self.object(Self.tool(["metrics", "--log", whole, "--format", "json", "--at", "2026-05-01T00:00:00Z"]).out)
        let revenue = Self.object(Self.tool(["revenue", "--log", whole, "--format", "json", "--at", "2026-05-01T00:00:00Z"]).out)
        let funnel = Self.object(Self.tool(["funnel", "--log", whole, "--format", "json", "--at", "2026-05-01T00:00:00Z"]).out)
        let active = (metrics["activeSubscriptions"] as? [String: Any])?["active"] as? Int
        #expect(active != nil && active == revenue["activeSubscriptions"] as? Int)
        let mrr = (metrics["mrr"] as? [[String: Any]] ?? []).map { "\($0["currency"]!) \($0["mrr"]!)" }
        let revenueMRR = (revenue["currencies"] as? [[String: Any]] ?? []).filter { $0["mrr"] as? String != "0.00" }.map { "\($0["currency"]!) \($0["mrr"]!)" }
        #expect(mrr.sorted() == revenueMRR.sorted() && !mrr.isEmpty)
        let trials = metrics["trialConversion"] as? [String: Any], funnelTrial = funnel["trial"] as? [String: Any]
        #expect(trials?["started"] as? Int == funnelTrial?["started"] as? Int && trials?["converted"] as? Int == funnelTrial?["converted"] as? Int)
        #expect(FileManager.default.fileExists(atPath: whole + "/projections"), "the model is kept beside the log")
    }

    @Test func pagesOfAListMakeTheWholeListAndTheFormatsAgree() throws {
        let s = Scratch()
        let file = s.path + "/all.jsonl"
        Self.tool(["generate", "--users", "150", "--seed", "3", "--out", file])
        Self.tool(["import", "--log", s.path + "/log", file])
        let base = ["users", "--log", s.path + "/log", "--at", "2026-03-01T00:00:00Z"]
        let whole = Self.object(Self.tool(base + ["--format", "json"]).out)
        let all = (whole["users"] as? [[String: Any]] ?? []).compactMap { $0["user"] as? String }
        #expect(all.count > 20 && whole["next"] is NSNull)
        var paged: [String] = [], after: String?
        while true {
            let page = Self.object(Self.tool(base + ["--format", "json", "--limit", "9"] + (after.map { ["--after", $0] } ?? [])).out)
            paged += (page["users"] as? [[String: Any]] ?? []).compactMap { $0["user"] as? String }
            guard let next = page["next"] as? String else { break }
            after = next
        }
        #expect(paged == all)
        let csv = Self.tool(base + ["--format", "csv"]).out.split(separator: "\n")
        #expect(csv.first == "user,planState,graceReason,graceEndsAt,product,tier,expiresAt,autoRenew,billingIssue,churnedAt")
        #expect(csv.dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[0]) } == all)
        let table = Self.tool(["metrics", "--log", s.path + "/log", "--by-segment", "tier", "--format", "csv"]).out
        #expect(table.hasPrefix("start,end,segment,metric,currency,value\n") && table.contains(",all,trials started,,"))
    }

    @Test func aMalformedDurationSegmentConditionOrLimitIsAUsageErrorOnOneLine() throws {
        let s = Scratch()
        Self.tool(["import", "--log", s.path + "/log", Tool.packageRoot + "/events/handz.jsonl"])
        let log = ["--log", s.path + "/log"]
        for (args, says) in [
            (["metrics", "--within", "7x"], "--within '7x' is not a duration"),
            (["metrics", "--lifetime", "0d"], "--lifetime '0d' is not a duration"),
            (["metrics", "--lifetime", "36501d"], "--lifetime '36501d'"),
            (["metrics", "--by-segment", "color"], "--by-segment 'color' is not one of product"),
            (["metrics", "--by", "fortnight"], "--by 'fortnight' is not one of day, week, month, quarter, year"),
            (["users", "--where", "nope=1"], "--where key 'nope' is not one of"),
            (["users", "--where", "planState=gold"], "--where planState 'gold' is not one of"),
            (["users", "--where", "planState"], "--where 'planState' is not KEY=VALUE"),
            (["users", "--where", "autoRenew=maybe"], "--where autoRenew 'maybe' is not true or false"),
            (["users", "--where", "trialEndsBefore=tomorrow"], "--where trialEndsBefore 'tomorrow' is not an RFC 3339 time"),
            (["users", "--limit", "0"], "--limit '0' is not a whole number"),
        ] {
            let r = Self.tool(args + log, status: 2)
            #expect(r.err.contains(says) && r.err.split(separator: "\n").count == 1, "\(args): \(r.err)")
        }
        // A --from not before the window's end is an empty window: nothing started, nothing charged.
        let empty = Self.object(Self.tool(["metrics", "--format", "json", "--from", "2026-05-01T00:00:00Z", "--at", "2026-04-01T00:00:00Z"] + log).out)
        #expect((empty["trialConversion"] as? [String: Any])?["started"] as? Int == 0 && (empty["refunds"] as? [String: Any])?["paidTransactions"] as? Int == 0)
        #expect((empty["conversion"] as? [String: Any])?["newCustomers"] as? Int == 0)
        let pending = Self.object(Self.tool(["metrics", "--format", "json", "--at", "2026-01-10T00:00:00Z"] + log).out)
        let trials = try #require(pending["trialConversion"] as? [String: Int])
        #expect(trials["converted"]! + trials["pending"]! + trials["abandoned"]! == trials["started"]!)
    }
}
