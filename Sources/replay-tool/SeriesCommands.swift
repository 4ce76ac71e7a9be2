import Foundation
import Projections
import ProjectionStorage
import SubscriptionDomain
import Reports

/// `counts`, `funnel` and `revenue` with `--by day|week|month|quarter|year`: one series pass, printed per bucket.
enum SeriesCommands {
    static let by = OptionSpec(name: "--by", value: "day|week|month|quarter|year",
                               help: "a series of buckets (weeks start Monday, UTC) from --from (default: the first event) to --to (default: --at)")

    /// The series asked for: from `--from` (default: the log's first event) to `--to` (default: `--at`, default now).
    static func series(_ a: ParsedArguments, profile: Profile? = nil, at: Timestamp? = nil, through: UInt64? = nil) throws -> (LedgerSeries, SeriesTotals) {
        let name = a.value("--by") ?? "week"
        guard let by = SeriesGranularity(rawValue: name) else {
            throw ToolError.usage("--by '\(name)' is not one of \(SeriesGranularity.namesText)")
        }
        // One pass per --log (partitions of one ledger), each cut into the same buckets, then merged.
        let dirs = try Common.logDirectories(a)
        let passes = try dirs.map { try run(a, profile: profile, at: at, through: through, directory: $0) }
        let totals = passes[0]
        let start = totals.options.from ?? passes.compactMap(\.firstEvent).min()
        let parts = passes.map { $0.series(by: by, from: start) }
        guard let series = LedgerSeries.merging(parts.compactMap { $0 }), parts.allSatisfy({ $0 != nil }) else {
            throw ToolError.usage("--by \(name) from \(start ?? totals.options.asOf) to \(totals.options.asOf) makes more than \(SeriesBuckets.maximumCount) buckets (narrow --from/--to or use a wider --by)")
        }
        return (series, totals)
    }

    /// One series pass, as of `--to` (or `at`, `--at`, now). `--from` not before that end is a usage
    /// error for a series; the plain `revenue` window passes `emptyWindow` (an empty window, as `counts` has).
    static func run(_ a: ParsedArguments, profile: Profile? = nil, at: Timestamp? = nil, through: UInt64? = nil, directory: String? = nil,
                    emptyWindow: Bool = false) throws -> SeriesTotals {
        let directory = directory ?? Common.logDirectory(a)
        try Common.requireLog(directory)
        let profile = try profile ?? Common.profile(a.value("--profile"))
        try Common.checkApp(profile, directory: directory)
        return try SeriesReplay.run(directory: directory, options: options(a, profile: profile, at: at, emptyWindow: emptyWindow),
                                    through: through ?? Common.knownThrough(a, directory: directory))
    }

    /// A series pass's options: as of `at` (else `--to`, `--at`, now), analytics window `--from`…that end.
    static func options(_ a: ParsedArguments, profile: Profile, at: Timestamp? = nil, emptyWindow: Bool = false) throws -> ReplayOptions {
        let to = try at ?? Common.windowEnd(a)
        let from = try Common.time(a, "--from")
        if let from, from >= to, !emptyWindow { throw ToolError.usage("--from \(from) is not before the series' end \(to)") }
        var options = ReplayOptions(profile: profile, asOf: to)
        options.from = from
        options.to = to
        options.includeSandbox = a.has("--include-sandbox")
        options.partitions = Common.partitions
        // The series reads each user's events in effect order: from the event cache, built when missing.
        options.buildEventCache = true
        return options
    }

    static func counts(_ a: ParsedArguments) throws -> Int32 {
        let format = try Common.rowFormat(a)
        let rows: [(start: Timestamp, end: Timestamp, counts: [String: Int])]
        let json: JSON
        if Common.usesTimeIndex(a) {
            let (buckets, counts) = try indexedCounts(a)
            rows = (0..<buckets.count).map { (buckets.start($0), buckets.end($0), counts[$0]) }
            json = .object([
                ("by", .string(buckets.by.rawValue)), ("from", .time(buckets.from)), ("to", .time(buckets.to)),
                ("buckets", .array(rows.map { .object([("start", .time($0.start)), ("end", .time($0.end))] + ReportJSON.counts($0.counts)) })),
            ])
        } else {
            let (s, _) = try series(a)
            rows = s.rows.map { ($0.start, $0.end, $0.counts) }
            json = ReportJSON.countsSeries(s)
        }
        switch format {
        case .json: Console.out(json.rendered + "\n")
        case .jsonl: json.printLines()
        case .table, .csv:
            Console.out(TextTable(headers: ["start", "end"] + LedgerSnapshot.metricNames, rows: countsRows(rows)).render(format))
        }
        return 0
    }

    /// A counts series' table rows: one per bucket, a column per metric.
    static func countsRows(_ rows: [(start: Timestamp, end: Timestamp, counts: [String: Int])]) -> [[String]] {
        rows.map { b in [b.start.description, b.end.description] + LedgerSnapshot.metricNames.map { "\(b.counts[$0] ?? 0)" } }
    }

    /// The counts series from each `--log`'s time index, summed bucket by bucket: the buckets a
    /// series pass makes (`series`), with the same usage errors.
    static func indexedCounts(_ a: ParsedArguments) throws -> (SeriesBuckets, [[String: Int]]) {
        let name = a.value("--by") ?? "week"
        guard let by = SeriesGranularity(rawValue: name) else {
            throw ToolError.usage("--by '\(name)' is not one of \(SeriesGranularity.namesText)")
        }
        var indexes: [(store: ProjectionStore, index: TimeIndex)] = []
        var to = Timestamp(nanoseconds: 0), from: Timestamp?
        // Checked in the order a series pass checks them (`run`), per --log.
        for directory in try Common.logDirectories(a) {
            try Common.requireLog(directory)
            let profile = try Common.profile(a.value("--profile"))
            try Common.checkApp(profile, directory: directory)
            to = try Common.windowEnd(a)
            from = try Common.time(a, "--from")
            if let from, from >= to { throw ToolError.usage("--from \(from) is not before the series' end \(to)") }
            var store = ProjectionStore(logDirectory: directory, profile: profile)
            store.partitions = Common.partitions
            store.timeIndexWithSandbox = a.has("--include-sandbox")
            indexes.append((store, try store.timeIndex().index))
        }
        let start = from ?? indexes.compactMap { $0.index.firstEvent(upTo: to) }.min()
        guard let buckets = SeriesBuckets(by: by, from: min(start ?? to, to), to: to) else {
            throw ToolError.usage("--by \(name) from \(start ?? to) to \(to) makes more than \(SeriesBuckets.maximumCount) buckets (narrow --from/--to or use a wider --by)")
        }
        var sums = [[String: Int]](repeating: [:], count: buckets.count)
        for (store, index) in indexes {
            for (i, counts) in try store.answer(from: index, { try $0.countsSeries(buckets) }).answer.enumerated() { sums[i].merge(counts, uniquingKeysWith: +) }
        }
        return (buckets, sums)
    }

    static func revenue(_ a: ParsedArguments) throws -> Int32 {
        let format = try Common.rowFormat(a)
        let s = try indexedSeries(a, funnel: false) ?? series(a).0
        switch format {
        case .json: Console.out(ReportJSON.revenueSeries(s).rendered + "\n")
        case .jsonl: ReportJSON.revenueSeries(s).printLines()
        case .table, .csv:
            Console.out(TextTable(headers: revenueHeaders, rows: revenueRows(s, format)).render(format))
        }
        return 0
    }

    static let revenueHeaders = ["start", "end", "currency", "gross", "refunded", "net", "mrr", "active subscriptions", "active trials", "churned",
                                 "churn rate", "trial conversion"]

    /// A revenue series' table rows: one per bucket and currency.
    static func revenueRows(_ s: LedgerSeries, _ format: OutputFormat) -> [[String]] {
        s.rows.flatMap { b in revenueRows(b.revenue, start: b.start.description, end: b.end.description, format) }
    }

    /// One revenue report's rows (one per currency, stocks repeated), behind `start` and `end`.
    static func revenueRows(_ r: RevenueReport, start: String, end: String, _ format: OutputFormat) -> [[String]] {
        let stocks = ["\(r.activeSubscriptions)", "\(r.activeTrials)", "\(r.churnedSubscribers)", percent(r.churnRate), percent(r.trialConversionRate)]
        // Every bucket lists every currency of the series; a series without money still
        // shows each bucket's stocks (one line, the currency left empty).
        let lines = r.lines.isEmpty ? [nil] : r.lines.map { Optional($0) }
        return lines.map { l in
            let money = l.map { l in [l.gross, l.refunded, l.net, l.mrr].map { MoneyCell.text($0, l.currency, format) } } ?? Array(repeating: "0.00", count: 4)
            return [start, end, l?.currency ?? ""] + money + stocks
        }
    }

    static func funnel(_ a: ParsedArguments) throws -> Int32 {
        let format = try Common.rowFormat(a)
        let s = try indexedSeries(a, funnel: true) ?? series(a).0
        switch format {
        case .json: Console.out(ReportJSON.funnelSeries(s).rendered + "\n")
        case .jsonl: ReportJSON.funnelSeries(s).printLines()
        case .table, .csv:
            Console.out(TextTable(headers: funnelHeaders, rows: funnelRows(s)).render(format))
        }
        return 0
    }

    static let funnelHeaders = ["start", "end", "cohort", "context", "step", "users", "rate"]

    /// A funnel series' table rows: per bucket, its paywall cohort's steps, trials and retention.
    static func funnelRows(_ s: LedgerSeries) -> [[String]] {
        var rows: [[String]] = []
        for b in s.rows {
            let (start, end) = (b.start.description, b.end.description)
            func add(_ context: String, _ steps: [FunnelReport.Step]) {
                for st in steps { rows.append([start, end, "first paywall view", context, st.name, "\(st.users)", percent(st.rate)]) }
            }
            add("all", b.funnel.steps)
            for (c, steps) in b.funnel.byContext.sorted(by: { $0.key < $1.key }) { add(c, steps) }
            let f = b.funnel
            rows.append([start, end, "trial start", "all", "trial_converted", "\(f.trialsConverted) of \(f.trialsStarted)",
                         percent(Rates.trialConversion(started: f.trialsStarted, converted: f.trialsConverted))])
            for p in b.retention.periods {
                rows.append([start, end, "first paid period (\(b.retention.subscribers))", "all", "retained after \(p.period)",
                             "\(p.retained) of \(p.measured)", percent(p.rate)])
            }
        }
        return rows
    }

    static func percent(_ r: Double) -> String { String(format: "%.1f%%", r * 100) }
}
