import Foundation
import Projections
import Reports
import SubscriptionDomain

/// `report`: one self-contained HTML page of charts and tables as of an instant.
enum ReportCommand {
    static let report = CommandSpec(
        name: "report", summary: "one self-contained HTML file of charts and tables, naming the log's head position and hash",
        positionals: nil,
        options: [Common.log,
                  OptionSpec(name: "--profile", value: "NAME|FILE", help: "the profile (default: handz); a second one adds the rule-change diff", repeatable: true),
                  Common.at, OptionSpec(name: "--out", value: "FILE", help: "where to write the page (default: report.html)")],
        details: "Charts: funnel per context, trial conversion by weekly cohort, MRR and active subscriptions and trials per week,\nrevenue and refunds per month per currency, churn per week, retention by start month; tables: revenue, counts,\nthe notification schedule. Every figure equals the JSON of counts/funnel/revenue/notifications at --at (and\nof revenue/funnel --by week|month to --at)."
    ) { a in
        let names = a.all("--profile")
        guard names.count <= 2 else { throw ToolError.usage("report takes one --profile, or two to add the rule-change diff") }
        let at = try Common.at(a)
        let out = a.value("--out") ?? "report.html"
        let profile = try Common.profile(names.first)
        let other = try names.count == 2 ? Common.profile(names[1]) : nil
        let snapshot = try Common.replay(a, asOf: at, profile: profile)
        // The series read the same records as the snapshot, even if the log grows meanwhile.
        let totals = try SeriesCommands.run(a, profile: profile, at: at, through: snapshot.headPosition)
        guard let weekly = totals.series(by: .week), let monthly = totals.series(by: .month) else {
            throw ToolError.usage("the log spans more than \(SeriesBuckets.maximumCount) weeks before \(at)")
        }
        let comparison = try other.map { (names[1], RuleDiff.compare(snapshot, try Common.replay(a, asOf: at, profile: $0))) }
        let input = ReportInput(
            logs: [Common.logDirectory(a)], profile: names.first ?? profile.name, instant: at,
            headPosition: totals.head.position, headHash: totals.head.hash.description,
            counts: snapshot.counts(), funnel: snapshot.funnel(), revenue: snapshot.revenue(), notifications: snapshot.notificationSummary(),
            weekly: weekly, monthly: monthly, comparison: comparison)
        let page = Data(ReportPage.html(input).utf8)
        do {
            try page.write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw ToolError.input("\(out): cannot write the report (\(error.localizedDescription))")
        }
        Console.out("wrote \(out) (\(page.count) bytes): \(Common.logDirectory(a)) at head position \(totals.head.position), as of \(at)\n")
        return 0
    }
}
