import Foundation
import Projections
import ProjectionStorage
import SubscriptionDomain
import Reports

/// `counts`, `funnel` and `revenue` with `--by-segment`: the report of every user, then the same
/// report of each segment's users (docs/rules.md, "Segments of the reports"), alone or as a series
/// with `--by`, each `--log`'s parts merged value by value.
enum SegmentReports {
    enum Report { case counts, funnel, revenue }

    static let option = OptionSpec(name: "--by-segment", value: "product|store|country|offer|tier",
                                   help: "also the report of each segment's users (each user in the segment their own events put them in as of the report's instant: the segments add up to the total)")

    static func run(_ a: ParsedArguments, _ report: Report, segment: Segment) throws -> Int32 {
        if a.has("--by") { return try series(a, report, segment: segment) }
        let format = try Common.plainFormat(a)
        let at = try Common.windowEnd(a)
        let profile = try Common.profile(a.value("--profile"))
        let (total, values) = try merged(a, [report], segment: segment, profile: profile, at: at)[0]
        switch format {
        case .json, .jsonl:
            let json = JSON.object(total.fields + [
                ("bySegment", .string(segment.rawValue)),
                ("segments", .array(values.map { .object([("segment", .string($0.0))] + $0.1.fields) })),
            ])
            Console.out(json.rendered + "\n")
        case .table, .csv:
            var t = TextTable(headers: ["segment"] + total.headers)
            for (name, p) in [("all", total)] + values { t.rows += p.rows(format).map { [name] + $0 } }
            Console.out(t.render(format))
        }
        return 0
    }

    /// Each of `reports` of every user, then of each segment value's users (values in order), each
    /// `--log`'s parts merged value by value: one snapshot and one segmentation per log for them all.
    static func merged(_ a: ParsedArguments, _ reports: [Report], segment: Segment, profile: Profile,
                       at: Timestamp) throws -> [(total: Parts, values: [(String, Parts)])] {
        let partitions = Common.partitions
        var totals = reports.map { _ in [Parts]() }
        var byValue = reports.map { _ in [String: [Parts]]() }
        let window = a.has("--from") || a.has("--to")
        for directory in try Common.logDirectories(a) {
            var segmented: (snapshot: LedgerSnapshot, values: [(value: String, snapshot: LedgerSnapshot)])?
            for (n, report) in reports.enumerated() {
                if report == .revenue, window {
                    // A window: money within it, stocks at its end, as the plain report's series pass.
                    try Common.requireLog(directory)
                    try Common.checkApp(profile, directory: directory)
                    let options = try SeriesCommands.options(a, profile: profile, emptyWindow: true)
                    let pass = try SeriesReplay.run(directory: directory, options: options, segment: segment, through: Common.knownThrough(a, directory: directory))
                    totals[n].append(.revenue(pass.total.windowRevenue()))
                    for (v, t) in pass.segments { byValue[n][v, default: []].append(.revenue(t.windowRevenue())) }
                    continue
                }
                if segmented == nil {
                    let snapshot = try Common.replay(a, asOf: at, profile: profile, directory: directory)
                    segmented = (snapshot, try snapshot.segmented(by: segment, directory: directory, partitions: partitions))
                }
                guard let segmented else { continue }
                totals[n].append(Parts(report, segmented.snapshot))
                for (v, s) in segmented.values { byValue[n][v, default: []].append(Parts(report, s)) }
            }
        }
        return reports.indices.map { n in
            (Parts.merging(totals[n]), byValue[n].keys.sorted().map { ($0, Parts.merging(byValue[n][$0]!)) })
        }
    }

    /// One plain report, in the form each command prints it.
    enum Parts {
        case counts([String: Int]), funnel(FunnelReport), revenue(RevenueReport)

        init(_ report: Report, _ s: LedgerSnapshot) {
            switch report {
            case .counts: self = .counts(s.counts())
            case .funnel: self = .funnel(s.funnel())
            case .revenue: self = .revenue(s.revenue())
            }
        }

        static func merging(_ parts: [Parts]) -> Parts {
            switch parts.first {
            case .counts?: .counts(LedgerSnapshot.mergingCounts(parts.compactMap { if case .counts(let c) = $0 { c } else { nil } }))
            case .funnel?: .funnel(FunnelReport.merging(parts.compactMap { if case .funnel(let f) = $0 { f } else { nil } }))
            case .revenue?, nil: .revenue(RevenueReport.merging(parts.compactMap { if case .revenue(let r) = $0 { r } else { nil } }))
            }
        }

        var fields: [(String, JSON)] {
            switch self {
            case .counts(let c): ReportJSON.counts(c)
            case .funnel(let f): ReportJSON.funnel(f)
            case .revenue(let r): ReportJSON.revenue(r)
            }
        }

        var headers: [String] {
            switch self {
            case .counts: ["metric", "count"]
            case .funnel: QueryCommands.funnelHeaders
            case .revenue: Array(SeriesCommands.revenueHeaders.dropFirst(2))
            }
        }

        func rows(_ format: OutputFormat) -> [[String]] {
            switch self {
            case .counts(let c): LedgerSnapshot.metricNames.map { [$0, "\(c[$0] ?? 0)"] }
            case .funnel(let f): QueryCommands.funnelRows(f)
            case .revenue(let r): SeriesCommands.revenueRows(r, start: "", end: "", format).map { Array($0.dropFirst(2)) }
            }
        }
    }

    /// The series by segment: one segmented pass per `--log`, every part cut into the same buckets.
    static func series(_ a: ParsedArguments, _ report: Report, segment: Segment) throws -> Int32 {
        let format = try Common.rowFormat(a)
        let name = a.value("--by") ?? "week"
        guard let by = SeriesGranularity(rawValue: name) else {
            throw ToolError.usage("--by '\(name)' is not one of \(SeriesGranularity.namesText)")
        }
        let profile = try Common.profile(a.value("--profile"))
        var passes: [SegmentedTotals] = []
        for directory in try Common.logDirectories(a) {
            try Common.requireLog(directory)
            try Common.checkApp(profile, directory: directory)
            passes.append(try SeriesReplay.run(directory: directory, options: try SeriesCommands.options(a, profile: profile), segment: segment,
                                               through: Common.knownThrough(a, directory: directory)))
        }
        let options = passes[0].total.options
        let start = options.from ?? passes.compactMap(\.total.firstEvent).min()
        func merged(_ parts: [SeriesTotals]) throws -> LedgerSeries {
            let series = parts.map { $0.series(by: by, from: start) }
            guard let s = LedgerSeries.merging(series.compactMap { $0 }), series.allSatisfy({ $0 != nil }) else {
                throw ToolError.usage("--by \(name) from \(start ?? options.asOf) to \(options.asOf) makes more than \(SeriesBuckets.maximumCount) buckets (narrow --from/--to or use a wider --by)")
            }
            return s
        }
        let total = try merged(passes.map(\.total))
        let values = try Set(passes.flatMap(\.segments.keys)).sorted().map { v in (v, try merged(passes.compactMap { $0.segments[v] })) }
        func json(_ s: LedgerSeries) -> JSON {
            switch report {
            case .counts: ReportJSON.countsSeries(s)
            case .funnel: ReportJSON.funnelSeries(s)
            case .revenue: ReportJSON.revenueSeries(s)
            }
        }
        func buckets(_ j: JSON) -> [JSON] {
            guard case .object(let pairs) = j, case .array(let b)? = pairs.first(where: { $0.0 == "buckets" })?.1 else { return [] }
            return b
        }
        switch format {
        case .json:
            guard case .object(let head) = json(total) else { return 0 }
            Console.out(JSON.object(head + [
                ("bySegment", .string(segment.rawValue)),
                ("segments", .array(values.map { .object([("segment", .string($0.0)), ("buckets", .array(buckets(json($0.1))))]) })),
            ]).rendered + "\n")
        case .jsonl:
            // The total's buckets as without --by-segment, then each value's, each starting with "segment".
            var lines = buckets(json(total))
            for (v, s) in values {
                lines += buckets(json(s)).map { b in
                    guard case .object(let pairs) = b else { return b }
                    return .object([("segment", .string(v))] + pairs)
                }
            }
            JSON.array(lines).printLines()
        case .table, .csv:
            let headers: [String]
            func rows(_ s: LedgerSeries) -> [[String]] {
                switch report {
                case .counts: SeriesCommands.countsRows(s.rows.map { ($0.start, $0.end, $0.counts) })
                case .funnel: SeriesCommands.funnelRows(s)
                case .revenue: SeriesCommands.revenueRows(s, format)
                }
            }
            switch report {
            case .counts: headers = ["start", "end"] + LedgerSnapshot.metricNames
            case .funnel: headers = SeriesCommands.funnelHeaders
            case .revenue: headers = SeriesCommands.revenueHeaders
            }
            var t = TextTable(headers: ["segment"] + headers)
            for (v, s) in [("all", total)] + values { t.rows += rows(s).map { [v] + $0 } }
            Console.out(t.render(format))
        }
        return 0
    }
}
