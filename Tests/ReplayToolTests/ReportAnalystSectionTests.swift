import Foundation
import Testing
import TestKit

/// The report's analysts' sections (MRR movement, trial conversion split, refund rate, ARPU and
/// ARPPU): present, every number tied to `metrics --by` (checked with the page's other numbers by
/// `Report.checkTiedNumbers`), and the trial outcomes adding up to the trials started per bucket.
@Suite struct ReportAnalystSections {
    @Test func theNewMetricsAreChartsTiedToMetricsByTheFineWidthAndTheTrialOutcomesAddUp() throws {
        let s = Scratch()
        let log = Report.population(s)
        let page = Tool.run(["report", "--log", log, "--at", Report.instant, "--out", "-"])
        #expect(page.status == 0, "\(page.err)")
        let html = page.out
        for title in ["MRR movement", "Trial conversion: converted, pending, abandoned", "Refund rate", "ARPU and ARPPU"] {
            #expect(html.contains("<h2>\(title)</h2>"), "section \(title)")
        }
        let tied = Report.tiedNumbers(html).filter { $0.key.hasPrefix("metrics-week|") }
        #expect(tied.count > 40)
        #expect(tied.contains { $0.key.contains("/mrr[currency=USD]/new") } && tied.contains { $0.key.contains("/arpu/currencies[currency=USD]/arppu") })
        #expect(Report.checkTiedNumbers(html, log: log) > tied.count)
        // Per week: converted + pending + abandoned on the page = trials started in metrics' JSON.
        let metrics = Tool.json(Tool.run(["metrics", "--log", log, "--by", "week", "--at", Report.instant, "--format", "json"]).out) as? [String: Any]
        let buckets = metrics?["buckets"] as? [[String: Any]] ?? []
        #expect(buckets.count > 4)
        for (i, b) in buckets.enumerated() {
            let shown = ["converted", "pending", "abandoned"].map { field in
                Int(tied.first { $0.key == "metrics-week|/buckets/\(i)/trialConversion/\(field)" }?.value ?? "") ?? -1
            }
            #expect(shown.reduce(0, +) == (b["trialConversion"] as? [String: Any])?["started"] as? Int, "week \(i): \(shown)")
        }
    }
}
