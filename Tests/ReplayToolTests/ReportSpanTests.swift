import Foundation
import Testing
import TestKit

/// The report over any span: buckets as wide as the span needs, week ticks on Mondays, a zero bar
/// apart from no data, retention cells with retained of measured, `--from/--to`, and a report as
/// of 2199 that stays small. Every number is still the tool's JSON for the widths the page used.
@Suite struct ReportSpans {
    static func write(_ s: Scratch, _ lines: [String]) throws -> String {
        let file = s.path + "/events-\(UUID().uuidString).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    static func report(_ log: String, _ s: Scratch, _ args: [String] = [], now: String = Report.instant) throws -> String {
        let out = s.path + "/report-\(UUID().uuidString).html"
        let r = Tool.run(["report", "--log", log, "--out", out] + args, now: now)
        #expect(r.status == 0, "\(args): \(r.err)")
        return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }

    /// The tick labels of one chart, by its id.
    static func ticks(_ html: String, chart id: String) -> [String] {
        guard let start = html.range(of: "aria-labelledby=\"\(id)-t"), let end = html.range(of: "</svg>", range: start.upperBound..<html.endIndex) else { return [] }
        let svg = String(html[start.upperBound..<end.lowerBound])
        let re = try! NSRegularExpression(pattern: #"data-label="date"[^>]*>([^<]*)<"#)
        return re.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { String(svg[Range($0.range(at: 1), in: svg)!]) }
    }

    @Test func weeklyTicksFallOnMondaysFromTheFirst() throws {
        let s = Scratch()
        let log = Report.population(s)
        let html = try Self.report(log, s)
        let iso = ISO8601DateFormatter()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for chart in ["trial", "trials", "mrr0", "active", "churn", "churned"] {
            let ticks = Self.ticks(html, chart: chart)
            #expect(ticks.count >= 3, "\(chart)")
            for t in ticks {
                let date = iso.date(from: t + "T00:00:00Z")
                #expect(date.map { calendar.component(.weekday, from: $0) } == 2, "\(chart): tick \(t) is not a Monday")
            }
        }
        // The first event of the population is not on a Monday: the first tick names its week's Monday.
        let first = Tool.json(Tool.run(["revenue", "--log", log, "--by", "week", "--at", Report.instant, "--format", "json"]).out) as! [String: Any]
        let start = (first["buckets"] as! [[String: Any]])[0]["start"] as! String
        let date = iso.date(from: start)!
        let weekday = calendar.component(.weekday, from: date)
        #expect(!(weekday == 2 && start.hasSuffix("T00:00:00Z")), "the story needs a first event off a week's start: \(start)")
        let monday = calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: date)!
        #expect(Self.ticks(html, chart: "trial").first == String(iso.string(from: monday).prefix(10)), "\(start)")
    }

    @Test func aWeekWhoseTrialsAllLapsedIsABarAtZeroAndAWeekWithoutTrialsIsNone() throws {
        let s = Scratch()
        func trial(_ u: String, _ day: String) -> String {
            #"{"id":"\#(u)","type":"purchase","user":"\#(u)","time":"2026-01-\#(day)T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"\#(u)-t","expires":"2026-01-\#(Int(day)! + 7 < 10 ? "0" : "")\#(Int(day)! + 7)T10:00:00Z","offer":"free_trial"},"source":"store"}"#
        }
        // Week of Jan 5: a trial that lapsed; week of Jan 12: none; week of Jan 19: a trial that converted.
        let file = try Self.write(s, [trial("lapsed", "06"), trial("kept", "20"),
            #"{"id":"kept-r","type":"renewal","user":"kept","time":"2026-01-27T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"kept-r1","expires":"2026-02-27T10:00:00Z","price":"9.99","currency":"USD"},"source":"store"}"#])
        #expect(Tool.run(["import", "--log", s.log, file]).status == 0)
        let html = try Self.report(s.log, s, ["--at", "2026-02-02T00:00:00Z"])
        #expect(Report.checkTiedNumbers(html, log: s.log, at: "2026-02-02T00:00:00Z") > 20)
        let weeks = (Tool.json(Tool.run(["funnel", "--log", s.log, "--by", "week", "--at", "2026-02-02T00:00:00Z", "--format", "json"]).out) as! [String: Any])["buckets"] as! [[String: Any]]
        let trials = weeks.map { (($0["trial"] as! [String: Any])["started"] as! Int, ($0["trial"] as! [String: Any])["converted"] as! Int) }
        #expect(trials.map(\.0) == [1, 0, 1, 0] && trials.map(\.1) == [0, 0, 1, 0], "\(trials)")
        func bar(_ i: Int) -> String? {
            let re = try! NSRegularExpression(pattern: #"<rect class="bar"([^>]*)><title data-k="funnel-week\|/buckets/\#(i)/trial/rate""#)
            return re.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) }
        }
        #expect(bar(0)?.contains("data-zero=\"1\"") == true, "a lapsed week is a zero bar: \(String(describing: bar(0)))")
        #expect(bar(0)?.contains("height=\"2.0\"") == true)
        #expect(bar(1) == nil && bar(3) == nil, "a week without a trial has no bar")
        #expect(bar(2).map { !$0.contains("data-zero") } == true)
    }

    @Test func retentionCellsShowRetainedOfMeasured() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, Tool.packageRoot + "/events/handz.jsonl"]).status == 0)
        let html = try Self.report(s.log, s, [], now: "2026-02-06T12:00:00Z")
        #expect(Report.checkTiedNumbers(html, log: s.log, at: "2026-02-06T12:00:00Z") > 50)
        let json = Tool.json(Tool.run(["funnel", "--log", s.log, "--by", "month", "--format", "json"], now: "2026-02-06T12:00:00Z").out) as! [String: Any]
        let first = ((json["buckets"] as! [[String: Any]])[0]["retention"] as! [String: Any])["periods"] as! [[String: Any]]
        // Each cell: the rate, then "retained of measured", as the JSON has them.
        let text = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        for p in first {
            let rate = String(format: "%.1f%%", (p["rate"] as! Double) * 100)
            #expect(text.contains("\(rate)\(p["retained"] as! Int) of \(p["measured"] as! Int) measured"), "\(p)")
        }
        #expect(first.contains { ($0["measured"] as! Int) < ((json["buckets"] as! [[String: Any]])[0]["retention"] as! [String: Any])["subscribers"] as! Int },
                "the story has a period fewer subscribers reached than started")
    }

    @Test func aReportAsOf2199IsDrawnByYearAndStaysSmall() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, Tool.packageRoot + "/events/handz.jsonl"]).status == 0)
        let at = "2199-01-01T00:00:00Z"
        let out = s.path + "/far.html"
        let r = Tool.run(["report", "--log", s.log, "--at", at, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        let bytes = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? .max
        #expect(bytes < 1_000_000, "\(bytes) bytes")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("funnel-year|") && html.contains("revenue-year|") && !html.contains("revenue-week|"))
        #expect(Self.ticks(html, chart: "active").allSatisfy { $0.count == 4 && Int($0) != nil } && Self.ticks(html, chart: "active").count <= 7)
        #expect(Report.checkTiedNumbers(html, log: s.log, at: at) > 500)
    }

    @Test func longerSpansAreDrawnByMonthAndQuarterAndReportFromToIsTheWindow() throws {
        let s = Scratch()
        let log = Report.population(s)
        // One account five years before the population: the span is five years.
        let early = try Self.write(s, [#"{"id":"early","type":"account_created","user":"early","time":"2021-03-03T10:00:00Z","source":"server"}"#])
        #expect(Tool.run(["import", "--log", log, early]).status == 0)
        let five = try Self.report(log, s, ["--at", Report.instant])
        #expect(five.contains("revenue-month|") && five.contains("revenue-quarter|") && !five.contains("revenue-week|"))
        #expect(Self.ticks(five, chart: "rev0").allSatisfy { $0.range(of: #"^\d{4} Q[1-4]$"#, options: .regularExpression) != nil })
        #expect(Report.checkTiedNumbers(five, log: log) > 150)
        // A window: the page says so and every number is the windowed JSON's.
        let window = ["--from", "2026-01-15T00:00:00Z", "--to", "2026-02-15T00:00:00Z"]
        let windowed = try Self.report(log, s, window)
        #expect(windowed.contains("<dt>window</dt>") && windowed.contains("revenue-week|"))
        #expect(Report.checkTiedNumbers(windowed, log: log, at: "2026-02-15T00:00:00Z", window: window) > 100)
        let counts = Tool.json(Tool.run(["counts", "--log", log, "--format", "json"] + window).out) as! [String: Any]
        #expect(windowed.contains("data-k=\"counts|/paywall_viewed\" data-v=\"\(counts["paywall_viewed"] as! Int)\""))
        let backwards = Tool.run(["report", "--log", log, "--from", "2026-02-15T00:00:00Z", "--to", "2026-01-15T00:00:00Z", "--out", s.path + "/x.html"])
        #expect(backwards.status == 2 && !FileManager.default.fileExists(atPath: s.path + "/x.html"))
    }
}
