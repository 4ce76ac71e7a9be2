import Foundation
import Testing
import TestKit

/// Edges of the series (`--by`) and of the window a new user ran into: a series ending before the
/// first event, a currency whose MRR lapsed, `--at` against `--to`, `revenue --from/--to` without
/// `--by`, and the series table's columns.
@Suite struct SeriesEdges {
    /// One user: a monthly purchase on Jan 4 and a billing issue on Feb 4 (pro_grace for three days).
    static func lapsedSubscriber(_ s: Scratch) throws -> String {
        let file = s.path + "/lapse.jsonl"
        try """
        {"id":"l-1","type":"purchase","user":"lena","time":"2026-01-04T12:00:00Z","data":{"product":"handz.pro.monthly","transaction":"l-t1","expires":"2026-02-04T12:00:00Z","price":"9.99","currency":"USD"},"source":"store"}
        {"id":"l-2","type":"billing_issue","user":"lena","time":"2026-02-04T12:00:00Z","source":"store"}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, file]).status == 0)
        return s.log
    }

    static func buckets(_ r: ToolRun) -> [[String: Any]] {
        ((Tool.json(r.out) as? [String: Any])?["buckets"] as? [[String: Any]]) ?? []
    }

    @Test func aSeriesEndingAtOrBeforeTheFirstEventIsEmptyNotOneZeroLengthBucket() throws {
        let s = Scratch()
        let log = try Self.lapsedSubscriber(s)
        let before = "2025-01-01T00:00:00Z"
        for command in ["counts", "revenue", "funnel"] {
            for args in [["--to", before], ["--at", before], ["--to", "2026-01-04T12:00:00Z"]] {
                let r = Tool.run([command, "--log", log, "--by", "day", "--format", "json"] + args)
                #expect(r.status == 0, "\(command) \(args): \(r.err)")
                let json = Tool.json(r.out) as! [String: Any]
                #expect(json["from"] as? String == args[1] && json["to"] as? String == args[1], "\(command) \(args): \(r.out)")
                #expect((json["buckets"] as? [Any])?.isEmpty == true, "\(command) \(args): \(r.out)")
            }
            let csv = Tool.run([command, "--log", log, "--by", "week", "--to", before, "--format", "csv"])
            #expect(csv.status == 0 && csv.out.split(separator: "\n").count == 1, "\(csv.out)")
        }
        // An explicit --from not before --to stays a usage error.
        #expect(Tool.run(["counts", "--log", log, "--by", "day", "--from", before, "--to", before]).status == 2)
        // The report as of an instant before the first event: no weeks, every number still tied.
        let out = s.path + "/early.html"
        #expect(Tool.run(["report", "--log", log, "--at", before, "--out", out]).status == 0)
        #expect(Report.checkTiedNumbers(try String(contentsOfFile: out, encoding: .utf8), log: log, at: before) > 0)
    }

    @Test func aCurrencyStaysInEveryBucketOnceItsMRRLapsesAndThePageOnlyNamesValuesTheJSONHas() throws {
        let s = Scratch()
        let log = try Self.lapsedSubscriber(s)
        let at = "2026-02-07T13:00:00Z"
        for by in ["week", "month", "day"] {
            let r = Tool.run(["revenue", "--log", log, "--by", by, "--at", at, "--format", "json"])
            let buckets = Self.buckets(r)
            #expect(r.status == 0 && !buckets.isEmpty)
            for b in buckets {
                let currencies = (b["currencies"] as? [[String: Any]])?.map { $0["currency"] as? String }
                #expect(currencies == ["USD"], "\(by) \(b["start"]!): \(String(describing: currencies))")
            }
            // The last bucket is after the grace ended: USD with MRR 0.
            #expect(((buckets.last?["currencies"] as? [[String: Any]])?.first?["mrr"] as? String) == "0.00")
            for format in ["csv", "table"] {
                let t = Tool.run(["revenue", "--log", log, "--by", by, "--at", at, "--format", format])
                let rows = t.out.split(separator: "\n").dropFirst()
                #expect(rows.count == buckets.count && rows.allSatisfy { $0.contains("USD") && !$0.contains(" - ") && !$0.contains(",-,") }, "\(t.out)")
            }
        }
        let out = s.path + "/lapse.html"
        #expect(Tool.run(["report", "--log", log, "--at", at, "--out", out]).status == 0)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("revenue-week|/buckets/5/currencies[currency=USD]/mrr"))
        #expect(Report.checkTiedNumbers(html, log: log, at: at) > 20)
    }

    @Test func toAfterAnExplicitAtIsAUsageErrorAndToUpToAtIsAccepted() throws {
        let s = Scratch()
        let log = try Self.lapsedSubscriber(s)
        let (at, later, earlier) = ("2026-01-15T00:00:00Z", "2026-02-06T00:00:00Z", "2026-01-10T00:00:00Z")
        for command in ["counts", "funnel", "revenue"] {
            for by in [[], ["--by", "week"]] {
                let bad = Tool.run([command, "--log", log, "--at", at, "--to", later] + by)
                #expect(bad.status == 2 && bad.err.contains("--to") && bad.err.contains("--at"), "\(command) \(by): \(bad.status) \(bad.err)")
                #expect(bad.err.split(separator: "\n").count == 1)
                for to in [at, earlier] {
                    let ok = Tool.run([command, "--log", log, "--at", at, "--to", to, "--format", "json"] + by)
                    #expect(ok.status == 0, "\(command) \(by) --to \(to): \(ok.err)")
                }
            }
        }
        // --to alone still ends the window (the clock's now is not an explicit --at).
        #expect(Tool.run(["counts", "--log", log, "--to", "2027-01-01T00:00:00Z"]).status == 0)
    }

    @Test func revenueWithAWindowIsTheSumOfTheSeriesBucketsOverThatWindow() throws {
        let s = Scratch()
        let log = Report.population(s, users: 200)
        let (from, to) = ("2026-01-20T00:00:00Z", "2026-02-10T00:00:00Z")
        let whole = Tool.json(Tool.run(["revenue", "--log", log, "--at", to, "--format", "json"]).out) as! [String: Any]
        let r = Tool.run(["revenue", "--log", log, "--from", from, "--to", to, "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let window = Tool.json(r.out) as! [String: Any]
        let days = Self.buckets(Tool.run(["revenue", "--log", log, "--by", "day", "--from", from, "--to", to, "--format", "json"]))
        #expect(days.count == 21)
        func cents(_ v: Any?) -> Int { Int(((Double(v as? String ?? "") ?? .nan) * 100).rounded()) }
        func line(_ report: [String: Any], _ c: String) -> [String: Any]? {
            (report["currencies"] as? [[String: Any]])?.first { $0["currency"] as? String == c }
        }
        let currencies = (window["currencies"] as! [[String: Any]]).map { $0["currency"] as! String }
        #expect(!currencies.isEmpty)
        for c in currencies {
            for field in ["gross", "refunded"] {
                let summed = days.reduce(0) { $0 + cents(line($1, c)?[field] ?? "0.00") }
                #expect(cents(line(window, c)?[field]) == summed, "\(c) \(field)")
            }
            #expect(line(window, c)?["mrr"] as? String == line(days.last!, c)?["mrr"] as? String)
        }
        // Money before --from is left out: the window's gross is less than the whole log's to --to.
        #expect(cents(line(window, "USD")?["gross"]) < cents(line(whole, "USD")?["gross"]))
        for stock in ["activeSubscriptions", "activeTrials", "churnedSubscribers"] {
            #expect(window[stock] as? Int == days.last![stock] as? Int && window[stock] as? Int == whole[stock] as? Int, "\(stock)")
        }
        // An empty window (as counts has): no money, the stocks as of --to.
        let empty = Tool.json(Tool.run(["revenue", "--log", log, "--from", to, "--to", from, "--format", "json"]).out) as! [String: Any]
        let early = Tool.json(Tool.run(["revenue", "--log", log, "--at", from, "--format", "json"]).out) as! [String: Any]
        #expect((empty["currencies"] as? [[String: Any]])?.allSatisfy { cents($0["gross"]) == 0 && cents($0["refunded"]) == 0 } == true)
        #expect(empty["activeSubscriptions"] as? Int == early["activeSubscriptions"] as? Int && (empty["activeSubscriptions"] as? Int ?? 0) > 0)
        #expect(Tool.run(["revenue", "--help"]).out.contains("--from"))
    }

    @Test func theRevenueSeriesTableAndCSVCarryTheTrialConversionRateOfTheJSON() throws {
        let s = Scratch()
        let log = Report.population(s, users: 80)
        let args = ["revenue", "--log", log, "--by", "week", "--at", Report.instant]
        let buckets = Self.buckets(Tool.run(args + ["--format", "json"]))
        let csv = Tool.run(args + ["--format", "csv"]).out.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(csv.first?.last == "trial conversion")
        let byStart = Dictionary(grouping: csv.dropFirst(), by: { $0[0] })
        #expect(byStart.count == buckets.count)
        #expect(buckets.contains { ($0["trialConversionRate"] as? Double ?? 0) > 0 })
        for b in buckets {
            let want = String(format: "%.1f%%", (b["trialConversionRate"] as! Double) * 100)
            #expect(byStart[b["start"] as! String]?.allSatisfy { $0.last == want } == true, "\(b["start"]!): \(want)")
        }
        #expect(Tool.run(args + ["--format", "table"]).out.split(separator: "\n").first?.hasSuffix("trial conversion") == true)
    }

    @Test func theReportsRuleChangeTableShowsEachPlanAsDiffPrintsIt() throws {
        let s = Scratch()
        let log = try Self.lapsedSubscriber(s)
        let grace = s.path + "/grace7.json"
        try Tool.run(["profiles", "show", "handz"]).out.replacingOccurrences(of: "\"billingGraceDays\" : 3", with: "\"billingGraceDays\" : 7")
            .write(toFile: grace, atomically: true, encoding: .utf8)
        // Feb 5: both in billing grace, only its end differs; Feb 9: A free, B still in grace.
        for at in ["2026-02-05T00:00:00Z", "2026-02-09T00:00:00Z"] {
            let table = Tool.run(["diff", "--log", log, "--profile", "handz", "--profile", grace, "--at", at]).out
            let diff = Tool.json(Tool.run(["diff", "--log", log, "--profile", "handz", "--profile", grace, "--at", at, "--format", "json"]).out) as! [[String: Any]]
            #expect(diff.count == 1, "\(at)")
            let out = s.path + "/diff.html"
            #expect(Tool.run(["report", "--log", log, "--profile", "handz", "--profile", grace, "--at", at, "--out", out]).status == 0)
            let html = try String(contentsOfFile: out, encoding: .utf8)
            for d in diff {
                for side in ["a", "b"] {
                    let plan = d[side] as! [String: Any]
                    let shown = (plan["planState"] as! String) + ((plan["graceReason"] as? String).map { " (\($0))" } ?? "")
                    let until = (plan["graceEndsAt"] as? String).map { " until \($0)" } ?? ""
                    #expect(table.contains(shown + until), "diff prints \(shown + until)")
                    let cell = "<td>" + shown + ((plan["graceEndsAt"] as? String).map { " until <time>\($0)</time>" } ?? "") + "</td>"
                    #expect(html.contains(cell), "\(at) \(side): \(cell)")
                }
                #expect((d["b"] as! [String: Any])["graceEndsAt"] is String)
            }
            #expect(Report.checkTiedNumbers(html, log: log, profiles: ["handz", grace], at: at) > 0)
            #expect(!Report.untiedText(html).contains { $0.isNumber })
        }
    }
}
