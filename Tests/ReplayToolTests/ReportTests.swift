import Foundation
import Testing
import TestKit

/// The HTML report: every number on the page is the tool's own JSON output for the
/// same instant, the page names the head it reflects, and small or empty data divides by nothing.
@Suite struct Report {
    static let instant = "2026-03-01T00:00:00Z"

    /// A log of a generated population (a few hundred users over several weeks).
    static func population(_ s: Scratch, users: Int = 300) -> String {
        let file = s.path + "/population.jsonl"
        #expect(Tool.run(["generate", "--users", "\(users)", "--seed", "7", "--out", file]).status == 0)
        #expect(Tool.run(["import", "--log", s.log, file]).status == 0)
        return s.log
    }

    /// Each element of the page tied to a JSON output: (key, value as the JSON writes it, text people read).
    static func tiedNumbers(_ html: String) -> [(key: String, value: String, text: String)] {
        let re = try! NSRegularExpression(pattern: #"<(\w+) [^>]*?data-k="([^"]*)" data-v="([^"]*)"[^>]*>([^<]*)</\1>"#)
        return re.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m in
            let g = { (i: Int) in unescape(String(html[Range(m.range(at: i), in: html)!])) }
            return (g(2), g(3), g(4))
        }
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The value at a pointer such as `/buckets/3/currencies[currency=USD]/mrr` (a `[field=value]`
    /// step picks the array element with that field; none there is no value: the page may not name it).
    static func resolve(_ json: Any, _ pointer: String) -> Any? {
        var at: Any? = json
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let step = String(raw).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let open = step.firstIndex(of: "["), step.hasSuffix("]") {
                let name = String(step[..<open])
                let selector = step[step.index(after: open)..<step.index(before: step.endIndex)].split(separator: "=", maxSplits: 1).map(String.init)
                let list = (at as? [String: Any])?[name] as? [[String: Any]] ?? []
                guard let hit = list.first(where: { "\($0[selector[0]] ?? "")" == selector[1] }) else { return nil }
                at = hit
            } else if let i = Int(step), let list = at as? [Any] {
                at = i < list.count ? list[i] : nil
            } else {
                at = (at as? [String: Any])?[step]
            }
        }
        return at
    }

    static func number(_ any: Any?) -> Double? {
        if let n = any as? NSNumber { return n.doubleValue }
        if let s = any as? String { return Double(s) }
        return nil
    }

    /// The number people read in `text` ("$1,234.50", "¥1,235", "45.6%", "1,234", or "label: 12"), and how far
    /// from exact it may be: money is rounded to the decimals it shows (its currency's minor unit).
    static func shown(_ text: String) -> (Double, Double)? {
        var t = text.components(separatedBy: ": ").last ?? text
        let percent = t.hasSuffix("%")
        let money = !percent && t.contains { !($0.isNumber || $0 == "." || $0 == "-" || $0 == ",") }
        let decimals = t.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
        t = String(t.filter { $0.isNumber || $0 == "." || $0 == "-" })
        guard let v = Double(t) else { return nil }
        return percent ? (v / 100, 0.0005 + 1e-9) : (v, money ? 0.5 * pow(10, -Double(decimals)) + 1e-9 : 0)
    }

    /// Every tied number equals the JSON output it names; the text people read rounds to it.
    /// `window` (`--from F --to T`) is passed to the counts, funnel and revenue outputs, as `report` was given it.
    static func checkTiedNumbers(_ html: String, log: String, profiles: [String] = ["handz"], at: String = instant, window: [String] = []) -> Int {
        var outputs: [String: Any] = [:]
        func output(_ name: String) -> Any {
            if let o = outputs[name] { return o }
            let args: [String]
            // `revenue-week`, `funnel-quarter`…: the series `--by` that width.
            let series = name.split(separator: "-").map(String.init)
            switch name {
            // `revenue-segment-offer`, `funnel-segment-tier`…: the report `--by-segment` that dimension.
            case _ where series.count == 3 && series[1] == "segment": args = [series[0], "--by-segment", series[2], "--profile", profiles[0]] + window
            case _ where series.count == 2: args = [series[0], "--by", series[1]] + window
            case "diff": args = ["diff", "--profile", profiles[0], "--profile", profiles[1]]
            case "notifications": args = [name, "--profile", profiles[0]]
            default: args = [name, "--profile", profiles[0]] + window
            }
            let r = Tool.run(args + ["--log", log, "--at", at, "--format", "json"])
            #expect(r.status == 0, "\(args): \(r.err)")
            outputs[name] = Tool.json(r.out)
            return outputs[name]!
        }
        let tied = tiedNumbers(html)
        for (key, value, text) in tied {
            let parts = key.split(separator: "|", maxSplits: 2).map(String.init)
            let expected: Double?
            switch parts[0] {
            case "notifications":
                let want = Dictionary(uniqueKeysWithValues: parts[1].split(separator: "&").map { $0.split(separator: "=").map(String.init) }.map { ($0[0], $0[1]) })
                let list = output("notifications") as! [[String: Any]]
                expected = Double(list.filter { n in
                    want.allSatisfy { k, v in k == "channels" ? (n["channels"] as? [String]) == [v] : (n[k] as? String) == v }
                }.count)
            case "diff":
                expected = Double((output("diff") as! [Any]).count)
            default:
                if parts[1] == "drop" {
                    // Users lost between step i − 1 and step i.
                    let i = Int(parts[2].split(separator: "/").last!)!
                    let steps = resolve(output(parts[0]), String(parts[2].split(separator: "/").dropLast().joined(separator: "/")).isEmpty ? "/" : "/" + parts[2].split(separator: "/").dropLast().joined(separator: "/"))
                    let users = (steps as? [[String: Any]])?.map { number($0["users"])! } ?? []
                    expected = users.count > i ? users[i - 1] - users[i] : nil
                } else {
                    expected = number(resolve(output(parts[0]), parts[1]))
                }
            }
            #expect(expected != nil && Double(value) == expected, "\(key): page \(value), JSON \(String(describing: expected))")
            if let (v, tolerance) = shown(text), let exact = Double(value) {
                #expect(abs(v - exact) <= tolerance, "\(key): shown '\(text)' for \(value)")
            } else {
                Issue.record("\(key): no number in '\(text)'")
            }
        }
        return tied.count
    }

    /// The page's text with every tied number, date, label and the metadata taken out: what is left holds no digit.
    static func untiedText(_ html: String) -> String {
        var s = html
        for pattern in [#"(?s)<style>.*?</style>"#, #"<(\w+) [^>]*?data-k="[^"]*"[^>]*>[^<]*</\1>"#, #"<title[^>]*>[^<]*</title>"#, #"<desc[^>]*>[^<]*</desc>"#,
                        #"(?s)<(\w+) [^>]*?data-label="[^"]*"[^>]*>.*?</\1>"#, #"<time[^>]*>[^<]*</time>"#, #"<[^>]*>"#] {
            s = s.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        return s
    }

    @Test func everyNumberInTheReportEqualsTheJSONOutputsForTheSameInstant() throws {
        let s = Scratch()
        let log = Self.population(s)
        let grace = s.path + "/grace7.json"
        let profile = Tool.run(["profiles", "show", "handz"]).out.replacingOccurrences(of: "\"billingGraceDays\" : 3", with: "\"billingGraceDays\" : 7")
        try profile.write(toFile: grace, atomically: true, encoding: .utf8)
        let out = s.path + "/report.html"
        let r = Tool.run(["report", "--log", log, "--profile", "handz", "--profile", grace, "--at", Self.instant, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let tied = Self.checkTiedNumbers(html, log: log, profiles: ["handz", grace])
        #expect(tied > 150)
        let left = Self.untiedText(html)
        let digits = String(left.filter { $0.isNumber || $0 == " " }.prefix(200))
        #expect(!left.contains { $0.isNumber }, "numbers not tied to a JSON output: \(digits)")
        // Every chart the issue lists is there, with its accessible title and description.
        for title in ["Funnel: all users", "Trial conversion by week of trial start", "MRR (USD) at the end of each week",
                      "Active subscriptions and active trials at the end of each week", "Revenue and refunds per month (USD)",
                      "Churn rate at the end of each week", "Subscription retention by start month", "Event counts", "Notification schedule", "Rule change"] {
            #expect(html.contains(title), "\(title)")
        }
        #expect(html.components(separatedBy: "<svg").count - 1 == html.components(separatedBy: "<desc id=").count - 1)
        // Self-contained: nothing fetched, no script.
        #expect(!html.contains("<script") && !html.contains(" src=") && !html.contains("@import") && !html.contains("url("))
        // The head it reflects, as verify prints it.
        let verify = Tool.run(["verify", "--log", log]).out
        let hash = verify.split(separator: "\n").first { $0.hasPrefix("head hash:") }!.split(separator: " ").last!
        #expect(html.contains(String(hash)) && html.contains("position \(verify.split(separator: "\n").first { $0.hasPrefix("records:") }!.split(separator: " ")[1])"))
    }

    @Test func aOneUserLogAndAnEmptyWindowReportWithoutDividingByZero() throws {
        let s = Scratch()
        let file = s.path + "/one.jsonl"
        try #"{"id":"1","type":"paywall_viewed","user":"solo","time":"2026-02-20T10:00:00Z","data":{"context":"onboarding"}}"#.appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, file]).status == 0)
        let out = s.path + "/one.html"
        #expect(Tool.run(["report", "--log", s.log, "--at", Self.instant, "--out", out]).status == 0)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!html.lowercased().contains("nan") && !html.contains("inf"))
        #expect(Self.checkTiedNumbers(html, log: s.log) > 20)
        // A week with nothing to divide is a gap in the rate charts, not a point at zero.
        #expect(html.contains("revenue-week|/buckets/0/activeSubscriptions"))
        #expect(!(0..<10).contains { html.contains("revenue-week|/buckets/\($0)/churnRate") || html.contains("funnel-week|/buckets/\($0)/trial/rate") })
        for by in ["day", "week", "month"] {
            let r = Tool.run(["revenue", "--log", s.log, "--by", by, "--at", Self.instant, "--format", "json"])
            #expect(r.status == 0 && !r.out.contains("nan"))
        }
    }

    @Test func seriesPrintTheContractShapeWithWeeksStartingOnMonday() throws {
        let s = Scratch()
        let log = Self.population(s, users: 60)
        for command in ["counts", "revenue", "funnel"] {
            let r = Tool.run([command, "--log", log, "--by", "week", "--from", "2026-01-01T00:00:00Z", "--to", Self.instant, "--format", "json"])
            #expect(r.status == 0, "\(r.err)")
            let json = Tool.json(r.out) as! [String: Any]
            #expect(json["by"] as? String == "week" && json["from"] as? String == "2026-01-01T00:00:00Z" && json["to"] as? String == Self.instant)
            let buckets = json["buckets"] as! [[String: Any]]
            #expect(buckets.first?["start"] as? String == "2026-01-01T00:00:00Z" && buckets.last?["end"] as? String == Self.instant)
            let iso = ISO8601DateFormatter()
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            for b in buckets.dropFirst() {
                let start = iso.date(from: b["start"] as! String)!
                #expect(calendar.component(.weekday, from: start) == 2 && calendar.component(.hour, from: start) == 0, "\(b["start"]!)")
            }
            for (a, b) in zip(buckets, buckets.dropFirst()) { #expect(a["end"] as? String == b["start"] as? String) }
            let keys: Set<String> = command == "counts" ? ["paywall_viewed", "renewal"] : command == "revenue" ? ["currencies", "activeSubscriptions", "churnRate"] : ["steps", "trial", "byContext", "retention"]
            #expect(buckets.allSatisfy { keys.isSubset(of: Set($0.keys)) })
            for format in ["table", "csv"] {
                let t = Tool.run([command, "--log", log, "--by", "month", "--to", Self.instant, "--format", format])
                #expect(t.status == 0 && t.out.hasPrefix(format == "csv" ? "start,end," : "start "))
            }
        }
        #expect(Tool.run(["counts", "--log", log, "--by", "fortnight"]).status == 2)
        #expect(Tool.run(["counts", "--log", log, "--by", "week", "--from", Self.instant, "--to", "2026-01-01T00:00:00Z"]).status == 2)
        #expect(Tool.run(["counts", "--log", log, "--by", "day", "--from", "1970-01-01T00:00:00Z", "--to", Self.instant]).status == 2)
    }
}
