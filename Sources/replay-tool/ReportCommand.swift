import Foundation
import EventStore
import Projections
import Reports
import SubscriptionDomain
import Ingest

/// `report`: one self-contained HTML page of charts and tables as of an instant.
enum ReportCommand {
    static let report = CommandSpec(
        name: "report", summary: "one self-contained HTML file of charts and tables, naming the log's head position and hash",
        positionals: nil,
        options: [Common.logs,
                  OptionSpec(name: "--profile", value: "NAME|FILE", help: "the profile (default: handz); a second one adds the rule-change diff", repeatable: true),
                  Common.at, QueryCommands.window[0], QueryCommands.window[1], OptionSpec(name: "--out", value: "FILE", help: "where to write the page (default: report.html; - for stdout); a regular file only"),
                  Common.asKnownAt, compareKnownAt, format, bySegment],
        details: """
        Charts: funnel per context, trial conversion by cohort, MRR and active subscriptions and trials, revenue and
        refunds per currency, churn, MRR movement, trials by outcome (converted, pending, abandoned), refund rate, ARPU and
        ARPPU, retention by start period; tables: revenue, counts, the notification schedule.
        --by-segment S: a section "By S" with a table row and bars per segment value (all first): active subscriptions and
        trials, trials started and converted, net revenue and MRR per currency, as revenue/funnel --by-segment S answer.
        The stock, trial and churn charts go by week over a span of up to a year, else by month, quarter or year; the
        revenue charts and the retention table by month over up to three years, else by quarter or year. Every figure
        equals the JSON of counts/funnel/revenue/notifications at --at (and of revenue/funnel --by those widths).
        --from/--to: the window's flows and its stocks at --to, as counts and revenue with a window answer.
        --as-known-at T: the page as the log's records recorded by T made it. --compare-known-at T: a first section with
        each headline number as known at T and now, and the late records that changed it (--format json: that alone).
        """
    ) { a in
        let names = a.all("--profile")
        guard names.count <= 2 else { throw ToolError.usage("report takes one --profile, or two to add the rule-change diff") }
        // With --from/--to: the window's flows, its stocks at --to (as counts and revenue with a window).
        let at = try Common.windowEnd(a)
        if let from = try Common.time(a, "--from"), from >= at { throw ToolError.usage("--from \(from) is not before the report's end \(at)") }
        let json = try checkRestatementOptions(a)
        let segment = try MetricsCommand.segment(a)
        let out = a.value("--out") ?? (json ? "-" : "report.html")
        if out != "-" { try Common.checkOutput(out) }
        let profile = try Common.profile(names.first)
        let other = try names.count == 2 ? Common.profile(names[1]) : nil
        if var input = try indexedInput(a, at: at, profile: profile, names: names, other: other) {
            input.segments = try segments(a, segment: segment, at: at, profile: profile)
            return try write(input, out: out, heads: input.partitionHeads.isEmpty ? [input.headPosition] : input.partitionHeads.map(\.position), at: at)
        }
        // Each --log (partitions of one ledger) folded and reported alone, then the reports merged.
        var counts: [[String: Int]] = [], funnels: [FunnelReport] = [], revenues: [RevenueReport] = [], summaries: [NotificationSummary] = []
        var passes: [SeriesTotals] = [], differences: [[PlanDifference]] = [], snapshots: [LedgerSnapshot] = []
        let dirs = try Common.logDirectories(a)
        for dir in dirs {
            let snapshot = try Common.replay(a, asOf: at, profile: profile, directory: dir)
            if a.has("--compare-known-at") { snapshots.append(snapshot) }
            // The series read the same records as the snapshot, even if the log grows meanwhile.
            passes.append(try SeriesCommands.run(a, profile: profile, at: at, through: snapshot.headPosition, directory: dir))
            counts.append(snapshot.counts())
            funnels.append(snapshot.funnel())
            // With a window, revenue is what `revenue --from/--to` answers: the window's flows, the stocks at its end.
            revenues.append(a.has("--from") || a.has("--to") ? passes[passes.count - 1].windowRevenue() : snapshot.revenue())
            summaries.append(snapshot.notificationSummary())
            if let other { differences.append(RuleDiff.compare(snapshot, try Common.replay(a, asOf: at, profile: other, directory: dir))) }
        }
        let start = passes[0].options.from ?? passes.compactMap(\.firstEvent).min()
        // Buckets as wide as the span needs for readable charts: weeks for months, months, quarters or years beyond.
        let (fineBy, coarseBy) = ReportSpan.widths(from: start ?? at, to: at)
        let fines = passes.map { $0.series(by: fineBy, from: start) }, coarses = passes.map { $0.series(by: coarseBy, from: start) }
        guard !fines.contains(where: { $0 == nil }), !coarses.contains(where: { $0 == nil }),
              let fine = LedgerSeries.merging(fines.compactMap { $0 }), let coarse = LedgerSeries.merging(coarses.compactMap { $0 }) else {
            throw ToolError.usage("the log spans more than \(SeriesBuckets.maximumCount) \(fineBy)s before \(at)")
        }
        let totals = passes[0]
        let comparison = other == nil ? nil : (profile: names[1], differences: RuleDiff.merging(differences))
        var input = ReportInput(
            logs: dirs, profile: names.first ?? profile.name, instant: at,
            headPosition: totals.head.position, headHash: totals.head.hash.description,
            counts: LedgerSnapshot.mergingCounts(counts), funnel: FunnelReport.merging(funnels), revenue: RevenueReport.merging(revenues),
            notifications: NotificationSummary.merging(summaries), fine: fine, coarse: coarse, comparison: comparison)
        input.from = try Common.time(a, "--from")
        input.knownAt = try Common.time(a, "--as-known-at")
        input.analysts = try analystWindows(a, fine.buckets, at: at, profile: profile)
        if dirs.count > 1 { input.partitionHeads = passes.map { ($0.head.position, $0.head.hash.description) } }
        input.restatement = try restatement(a, at: at, profile: profile, dirs: dirs, now: snapshots)
        if json, let r = input.restatement {
            let text = Array((r.json.rendered + "\n").utf8)
            if out == "-" { Console.out(bytes: text) } else { try Common.writeOutput(text, to: out, what: "the comparison") }
            return 0
        }
        input.segments = try segments(a, segment: segment, at: at, profile: profile)
        return try write(input, out: out, heads: passes.map(\.head.position), at: at)
    }

    /// Writes the page of `input` to `out` (- for stdout), and says so naming each log's head.
    static func write(_ input: ReportInput, out: String, heads: [UInt64], at: Timestamp) throws -> Int32 {
        let page = Array(ReportPage.html(input).utf8)
        if out == "-" {
            Console.out(bytes: page)
            return 0
        }
        try Common.writeOutput(page, to: out, what: "the report")
        Console.out("wrote \(OneLine.escaped(out)) (\(page.count) bytes): " + zip(input.logs, heads).map { pair in "\(pair.0) at head position \(pair.1)" }.joined(separator: ", ") + ", as of \(at)" + (input.knownAt.map { " as known at \($0)" } ?? "") + "\n")
        return 0
    }
}
