import Foundation
import Testing
import TestKit

/// `counts`, `funnel` and `revenue --by-segment` through the built tool: partition logs answer as
/// the single log byte for byte; the JSON keeps every key of the plain report and adds `bySegment`
/// and `segments`; the segments add up to the total; every format prints them.
@Suite struct SegmentReportCommands {
    static let now = "2026-06-01T00:00:00Z"

    @discardableResult
    static func tool(_ args: [String], status: Int32 = 0) -> ToolRun {
        Tool.expecting(status, args, now: now)
    }

    static func object(_ s: String) -> [String: Any] { Tool.object(s) }

    @Test(.timeLimit(.minutes(5))) func overPartitionLogsEverySegmentedReportIsTheSingleLogsByteForByte() throws {
        let s = Scratch()
        let (whole, parts) = Tool.partitionedPopulation(in: s.path, users: 300, seed: 19, now: Self.now)
        let asked: [[String]] = [
            ["counts", "--by-segment", "offer", "--at", "2026-04-01T00:00:00Z"],
            ["funnel", "--by-segment", "product", "--from", "2026-02-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"],
            ["revenue", "--by-segment", "tier"],
            ["revenue", "--by-segment", "offer", "--from", "2026-02-01T00:00:00Z"],
            ["counts", "--by-segment", "offer", "--by", "month"],
            ["funnel", "--by-segment", "offer", "--by", "week", "--from", "2026-02-02T00:00:00Z"],
            ["revenue", "--by-segment", "product", "--by", "quarter", "--at", "2026-05-01T00:00:00Z"],
        ]
        for args in asked {
            let single = Self.tool(args + ["--log", whole, "--format", "json"]).out
            let merged = Self.tool(args + parts.flatMap { ["--log", $0] } + ["--format", "json"]).out
            #expect(single == merged, "\(args.joined(separator: " "))")
            // The plain report's keys come first, unchanged; then bySegment and segments.
            let plain = Self.tool(args.filter { $0 != "--by-segment" && !["offer", "product", "tier"].contains($0) } + ["--log", whole, "--format", "json"]).out
            #expect(single.hasPrefix(String(plain.dropLast(2))), "\(args.joined(separator: " ")): the plain report's keys first")
            let json = Self.object(single)
            let segments = json["segments"] as? [[String: Any]] ?? []
            #expect(json["bySegment"] as? String == args[2] && segments.count >= 2, "\(args.joined(separator: " ")): \(segments.count) segments")
        }
    }

    @Test func theSegmentsAddUpToTheTotalInEveryFormat() throws {
        let s = Scratch()
        let file = s.path + "/all.jsonl"
        Self.tool(["generate", "--users", "200", "--seed", "5", "--out", file])
        let log = ["--log", s.path + "/log"]
        Self.tool(["import"] + log + [file])
        let counts = Self.object(Self.tool(["counts", "--by-segment", "offer", "--format", "json"] + log).out)
        let segments = try #require(counts["segments"] as? [[String: Any]])
        #expect(segments.map { $0["segment"] as? String ?? "" } == ["free_trial", "none"])
        for metric in ["paywall_viewed", "purchase_success", "trial_started", "renewal", "refund"] {
            let values: [Int] = segments.map { $0[metric] as? Int ?? 0 }
            #expect(values.reduce(0, +) == counts[metric] as? Int, "\(metric)")
        }
        let revenue = Self.object(Self.tool(["revenue", "--by-segment", "offer", "--by", "month", "--format", "json"] + log).out)
        let total = try #require(revenue["buckets"] as? [[String: Any]])
        let bySegment = (revenue["segments"] as? [[String: Any]] ?? []).map { $0["buckets"] as? [[String: Any]] ?? [] }
        #expect(bySegment.count == 2 && bySegment.allSatisfy { $0.count == total.count } && !total.isEmpty)
        for (i, bucket) in total.enumerated() {
            let active: [Int] = bySegment.map { $0[i]["activeSubscriptions"] as? Int ?? 0 }
            #expect(active.reduce(0, +) == bucket["activeSubscriptions"] as? Int, "bucket \(i)")
        }
        // Table and CSV: a segment column first, `all` then each value; jsonl: the total's buckets then each value's, named.
        let csv = Self.tool(["revenue", "--by-segment", "offer", "--by", "month", "--format", "csv"] + log).out.split(separator: "\n")
        #expect(csv.first == "segment,start,end,currency,gross,refunded,net,mrr,active subscriptions,active trials,churned,churn rate,trial conversion")
        var order: [String] = []
        for line in csv.dropFirst() {
            let segment = String(line.prefix { $0 != "," })
            if order.last != segment { order.append(segment) }
        }
        #expect(order == ["all", "free_trial", "none"])
        let lines = Self.tool(["counts", "--by-segment", "offer", "--by", "month", "--format", "jsonl"] + log).out.split(separator: "\n")
        #expect(lines.count == total.count * 3)
        #expect(lines.prefix(total.count).allSatisfy { $0.hasPrefix(#"{"start""#) } && lines.dropFirst(total.count).allSatisfy { $0.hasPrefix(#"{"segment""#) })
        let table = Self.tool(["funnel", "--by-segment", "offer"] + log).out
        #expect(table.hasPrefix("segment") && table.contains("\nfree_trial ") && table.contains("\nall "))
        // A segment the tool does not know, and jsonl of a plain report: usage errors.
        let bad = Self.tool(["counts", "--by-segment", "platform"] + log, status: 2)
        #expect(bad.err.contains("--by-segment 'platform' is not one of product, store, country, offer, tier"))
        Self.tool(["revenue", "--by-segment", "offer", "--format", "jsonl"] + log, status: 2)
    }
}
