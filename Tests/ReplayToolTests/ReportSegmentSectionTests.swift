import Foundation
import Testing
import TestKit

/// `report --by-segment S`: the "By S" section, each number tied to `revenue`/`funnel --by-segment S`
/// (checked by `Report.checkTiedNumbers` with the page's other numbers), a row per value of the
/// JSON's `segments` after `all`, the values adding up to `all`, the rest of the page unchanged,
/// partition logs and the time index giving the single log's fold's section.
@Suite struct ReportSegmentSection {
    static func page(_ args: [String], environment: [String: String] = [:]) -> String {
        let r = Tool.run(["report", "--at", Report.instant, "--out", "-"] + args, environment: environment)
        #expect(r.status == 0, "report \(args.joined(separator: " ")): \(r.err)")
        return r.out
    }

    /// The section "By S" of a page, from its `<section>` to its `</section>` and line end.
    static func section(_ html: String, _ segment: String) -> String? {
        guard let start = html.range(of: "<section><h2>By \(segment)</h2>"),
              let end = html.range(of: "</section>\n", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test func everyNumberOfTheSectionIsTheSegmentedJSONAndEachValueOfItsSegmentsHasARow() throws {
        let s = Scratch()
        let log = Report.population(s)
        for segment in ["offer", "product", "country", "store", "tier"] {
            let html = Self.page(["--log", log, "--by-segment", segment])
            let section = try #require(Self.section(html, segment), "\(segment): no section")
            // The whole page for one dimension (its other numbers too), the section alone for the others.
            let checked = Report.checkTiedNumbers(segment == "offer" ? html : section, log: log)
            let tied = Report.tiedNumbers(section)
            #expect(checked >= tied.count && tied.allSatisfy { $0.key.hasPrefix("revenue-segment-\(segment)|") || $0.key.hasPrefix("funnel-segment-\(segment)|") })
            let left = Report.untiedText(section)
            #expect(!left.contains { $0.isNumber }, "\(segment): numbers not tied to a JSON output: \(left)")
            // One table row per value, `all` first, in the order of the JSON's segments; each with its four counts.
            let json = Tool.json(Tool.run(["revenue", "--log", log, "--at", Report.instant, "--by-segment", segment, "--format", "json"]).out) as? [String: Any]
            let values = (json?["segments"] as? [[String: Any]] ?? []).map { $0["segment"] as? String ?? "" }
            // The generated population names no store or country: every user is `unknown` there.
            #expect(values.count >= (["store", "country"].contains(segment) ? 1 : 2), "\(segment): \(values)")
            let table = section.components(separatedBy: "</table>")[0]
            let rows = table.components(separatedBy: "<td data-label=\"segment\">").dropFirst().map { Report.unescape(String($0.prefix { $0 != "<" })) }
            #expect(rows == ["all"] + values, "\(segment)")
            for field in ["activeSubscriptions", "activeTrials"] {
                #expect(tied.filter { $0.key.hasSuffix("|/\(field)") || $0.key.contains("/segments/") && $0.key.hasSuffix("/\(field)") }.count == 3 * rows.count,
                        "\(segment) \(field): a table cell, and a bar with its tooltip and its label, per row")
            }
            // The charts: active, trials, and one per currency, each with its accessible title and description.
            #expect(section.components(separatedBy: "<svg").count - 1 == 2 + Set((json?["currencies"] as? [[String: Any]] ?? []).map { "\($0["currency"]!)" }).count)
            #expect(section.components(separatedBy: "<svg").count == section.components(separatedBy: "<desc id=").count)
        }
        // A window: revenue's flows within it and stocks at its end, as `revenue --by-segment --from --to` answers.
        let window = ["--from", "2026-01-15T00:00:00Z", "--to", "2026-02-15T00:00:00Z"]
        let windowed = try #require(Self.section(Self.page(["--log", log, "--by-segment", "offer"] + window), "offer"))
        #expect(Report.checkTiedNumbers(windowed, log: log, at: "2026-02-15T00:00:00Z", window: window) > 20)
    }

    @Test func theValuesAddUpToTheAllRowAndTheRestOfThePageIsThePlainReport() throws {
        let s = Scratch()
        let log = Report.population(s)
        let plain = Self.page(["--log", log])
        #expect(!plain.contains("-segment-"))
        for segment in ["offer", "country", "tier"] {
            let html = Self.page(["--log", log, "--by-segment", segment])
            let section = try #require(Self.section(html, segment))
            #expect(html.replacingOccurrences(of: section, with: "") == plain, "\(segment): the page without its section is the plain page")
            // Each figure of the table rows: all = the sum of the values' (money exactly, as decimals).
            let cells = Report.tiedNumbers(section.components(separatedBy: "<svg")[0])
            var sums: [String: Decimal] = [:], totals: [String: Decimal] = [:]
            for (key, value, _) in cells {
                let pointer = String(key.split(separator: "|", maxSplits: 1)[1])
                let v = try #require(Decimal(string: value), "\(key): \(value)")
                if let r = pointer.range(of: #"^/segments/\d+"#, options: .regularExpression) {
                    sums[String(key.prefix { $0 != "|" }) + String(pointer[r.upperBound...]), default: 0] += v
                } else {
                    #expect(totals.updateValue(v, forKey: String(key.prefix { $0 != "|" }) + pointer) == nil, "\(key) twice in the tables")
                }
            }
            #expect(totals.count >= 6 && Set(sums.keys) == Set(totals.keys), "\(segment): \(totals.keys.sorted())")
            for (k, total) in totals { #expect(sums[k] == total, "\(segment) \(k): values add up to \(sums[k] ?? 0), all is \(total)") }
        }
    }

    @Test func aDimensionTheToolDoesNotKnowIsAUsageErrorOnOneLineAndWritesNothing() throws {
        let s = Scratch()
        let log = Report.population(s, users: 20)
        let out = s.path + "/r.html"
        for bad in ["platform", "Offer", ""] {
            let r = Tool.run(["report", "--log", log, "--by-segment", bad, "--out", out])
            #expect(r.status == 2 && r.out.isEmpty, "'\(bad)': exit \(r.status)")
            let why = bad.isEmpty ? "option --by-segment needs a value" : "--by-segment '\(bad)' is not one of product, store, country, offer, tier"
            #expect(r.err.split(separator: "\n").count == 1 && r.err.contains(why), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        #expect(Tool.run(["report", "--log", log, "--by-segment"]).status == 2)
        // The help names the flag and its dimensions.
        let help = Tool.run(["help", "report"])
        #expect(help.status == 0 && help.out.contains("--by-segment product|store|country|offer|tier") && help.out.contains("\"By S\""), "\(help.out)")
    }

    @Test(.timeLimit(.minutes(5))) func overPartitionLogsAndFromTheFoldTheSectionIsTheSingleLogsIndexedOne() throws {
        let s = Scratch()
        let file = s.path + "/all.jsonl"
        #expect(Tool.run(["generate", "--users", "300", "--seed", "23", "--out", file]).status == 0)
        #expect(Tool.run(["import", "--log", s.path + "/single", file]).status == 0)
        let parts = (0..<3).map { p -> String in
            #expect(Tool.run(["import", "--log", s.path + "/p\(p)", "--partition", "\(p)/3", file]).status == 0)
            return s.path + "/p\(p)"
        }
        for segment in ["tier", "country"] {
            let single = Self.page(["--log", s.path + "/single", "--by-segment", segment])
            let section = try #require(Self.section(single, segment))
            #expect(Report.tiedNumbers(section).count > 12)
            let merged = Self.page(parts.flatMap { ["--log", $0] } + ["--by-segment", segment])
            #expect(Self.section(merged, segment) == section, "\(segment): partitions")
            let folded = Self.page(["--log", s.path + "/single", "--by-segment", segment], environment: ["REPLAY_TOOL_TIME_INDEX": "off"])
            #expect(folded == single, "\(segment): the fold's page is the time index's")
        }
    }
}
