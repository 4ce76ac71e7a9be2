import Foundation
import Projections
import ProjectionStorage
import SubscriptionDomain
import Reports

/// `metrics`: the analysts' metrics (docs/rules.md, "Analysts' metrics") of a window or a series,
/// optionally by segment, from the analysts' model of each `--log`.
enum MetricsCommand {
    static let bySegment = OptionSpec(name: "--by-segment", value: "product|store|country|offer|tier",
                                      help: "break every figure down by this dimension (each value's figures sum to the total)")
    static let within = OptionSpec(name: "--within", value: "Nd|Nh", help: "conversion window after a customer is first seen (default: 7d)")
    static let lifetime = OptionSpec(name: "--lifetime", value: "Nd|Nh", help: "realized LTV's customer lifetime (default: 30d; e.g. 90d, 365d)")

    static let spec = CommandSpec(
        name: "metrics",
        summary: "analysts' metrics: subscription and MRR movement, ARR, refund rate, trial conversion, conversion, realized LTV, ARPU",
        positionals: nil,
        options: Common.query + [QueryCommands.window[0], QueryCommands.window[1], SeriesCommands.by, bySegment, within, lifetime, Common.asKnownAt],
        details: """
        Flows within [--from, --to) (default: the log's first event to --at, --at included), stocks
        (active subscriptions, MRR, ARR) at the window's end, cohorts (trials, new customers) started
        within it with their outcomes as known at --to. With --by: one window per bucket, outcomes as
        known at the series' end. Definitions: docs/rules.md, "Analysts' metrics".
        """
    ) { a in try run(a) }

    /// A duration option: a whole number of days (`7d`) or hours (`12h`), from 1 hour to 36,500 days.
    static func duration(_ a: ParsedArguments, _ name: String, default d: Int64) throws -> (nanos: Int64, text: String) {
        guard let v = a.value(name) else { return (d, "\(d / 86_400_000_000_000)d") }
        let unit = v.last
        let digits = v.dropLast()
        guard unit == "d" || unit == "h", !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int64(digits),
              n >= 1, n <= (unit == "d" ? 36_500 : 876_000) else {
            throw ToolError.usage("\(name) '\(v)' is not a duration such as 7d or 12h (1h to 36500d)")
        }
        return (n * (unit == "d" ? 86_400 : 3_600) * 1_000_000_000, v)
    }

    static func segment(_ a: ParsedArguments) throws -> Segment? {
        guard let v = a.value("--by-segment") else { return nil }
        guard let s = Segment(rawValue: v) else {
            throw ToolError.usage("--by-segment '\(v)' is not one of \(Segment.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return s
    }

    /// Each `--log`'s analysts' model (kept in its projections folder, built when missing or stale),
    /// checked as every report checks its logs; `spans` for customer lists.
    static func models(_ a: ParsedArguments, spans: Bool = false, profile: Profile? = nil) throws -> [AnalystModel] {
        let profile = try profile ?? Common.profile(a.value("--profile"))
        return try Common.logDirectories(a).map { directory in
            try Common.requireLog(directory)
            try Common.checkApp(profile, directory: directory)
            var store = ProjectionStore(logDirectory: directory, profile: profile)
            store.partitions = Common.partitions
            // As known at an earlier instant: a model of the log's prefix then, built for this answer only.
            if let known = try Common.knownThrough(a, directory: directory) {
                return try AnalystModel.build(directory: directory, profile: profile, partitions: store.partitions, through: known).model
            }
            return try store.analystModel(spans: spans).model
        }
    }

    static func run(_ a: ParsedArguments) throws -> Int32 {
        let format = try Common.format(a)
        let segment = try segment(a)
        let within = try duration(a, "--within", default: 7 * 86_400_000_000_000)
        let lifetime = try duration(a, "--lifetime", default: 30 * 86_400_000_000_000)
        let granularity: SeriesGranularity?
        if let name = a.value("--by") {
            guard let g = SeriesGranularity(rawValue: name) else { throw ToolError.usage("--by '\(name)' is not one of \(SeriesGranularity.namesText)") }
            granularity = g
        } else {
            granularity = nil
        }
        let to = try Common.windowEnd(a)
        let from = try Common.time(a, "--from")
        if granularity != nil, let from, from >= to { throw ToolError.usage("--from \(from) is not before the series' end \(to)") }
        let models = try models(a)
        let start = from ?? models.compactMap { $0.firstEvent.flatMap { $0 <= to ? $0 : nil } }.min() ?? to
        // A window without --to (nor --by) includes the instant --at, as every plain report does.
        // An explicit --from not before the window's end is an empty window, as for counts and revenue.
        let empty = granularity == nil && from.map { $0 >= to } == true
        let inclusive = a.value("--to") == nil && granularity == nil && !empty
        var bounds: [Timestamp]
        if let granularity {
            guard let buckets = SeriesBuckets(by: granularity, from: min(start, to), to: to) else {
                throw ToolError.usage("--by \(granularity.rawValue) from \(start) to \(to) makes more than \(SeriesBuckets.maximumCount) buckets (narrow --from/--to or use a wider --by)")
            }
            bounds = buckets.count == 0 ? [] : buckets.bounds
        } else {
            bounds = [empty ? to : min(start, to), to]
        }
        var nanos = bounds.map(\.nanoseconds)
        if inclusive, let last = nanos.last { nanos[nanos.count - 1] = last == .max ? last : last + 1 }
        var windows: [AnalystBreakdown] = []
        for model in models {
            let part = model.metrics(bounds: nanos, asOf: to.nanoseconds, within: within.nanos, lifetime: lifetime.nanos, segment: segment)
            windows = windows.isEmpty ? part : zip(windows, part).map { $0.adding($1) }
        }
        let head: [(String, JSON)] = [("at", .time(try Common.at(a))), ("from", .time(bounds.first ?? to)), ("to", .time(to)),
                                      ("within", .string(within.text)), ("lifetime", .string(lifetime.text)),
                                      ("bySegment", .text(segment?.rawValue))]
        switch format {
        case .json, .jsonl:   // jsonl is not offered (Common.format)
            let json: JSON
            if let granularity {
                json = .object(head + [("by", .string(granularity.rawValue)), ("buckets", .array(windows.indices.map { i in
                    .object([("start", .time(bounds[i])), ("end", .time(bounds[i + 1]))] + fields(windows[i], segment: segment))
                }))])
            } else {
                json = .object(head + (windows.first.map { fields($0, segment: segment) } ?? fields(AnalystBreakdown(), segment: segment)))
            }
            Console.out(json.rendered + "\n")
        case .table, .csv:
            var t = TextTable(headers: ["start", "end", "segment", "metric", "currency", "value"])
            for (i, w) in windows.enumerated() {
                let (s, e) = (bounds[i].description, bounds[i + 1].description)
                for (name, m) in [("all", w.total)] + w.segments.sorted(by: { $0.key < $1.key }) {
                    for row in rows(m, segmented: name != "all") { t.rows.append([s, e, name] + row) }
                }
            }
            Console.out(t.render(format))
        }
        return 0
    }

    static func money(_ m: Money) -> JSON { .string(m.description) }

    /// One window's JSON fields: the total's, then each segment value's (with `--by-segment`).
    static func fields(_ b: AnalystBreakdown, segment: Segment?) -> [(String, JSON)] {
        var out = fields(b.total, segmented: false)
        if segment != nil {
            out.append(("segments", .array(b.segments.sorted { $0.key < $1.key }.map { .object([("segment", .string($0.key))] + fields($0.value, segmented: true)) })))
        }
        return out
    }

    /// The fields of one set of metrics. A segment has no ARPU: customers' activity is not segmented.
    static func fields(_ m: AnalystMetrics, segmented: Bool) -> [(String, JSON)] {
        let lifetimeCurrencies = m.lifetimeRevenue.keys.sorted()
        let revenueCurrencies = m.revenue.keys.sorted()
        return [
            ("activeSubscriptions", .object([("new", .int(m.newSubscriptions)), ("resubscribed", .int(m.resubscribed)), ("churned", .int(m.churned)),
                                             ("net", .int(m.newSubscriptions + m.resubscribed - m.churned)), ("active", .int(m.active))])),
            ("mrr", .array(m.mrr.keys.sorted().map { c in
                let x = m.mrr[c]!
                return .object([("currency", .string(c)), ("new", money(x.new)), ("resubscription", money(x.resubscription)),
                                ("expansion", money(x.expansion)), ("contraction", money(x.contraction)), ("churned", money(x.churned)),
                                ("net", money(x.net)), ("mrr", money(x.mrr)), ("arr", money(x.arr))])
            })),
            ("refunds", .object([("paidTransactions", .int(m.paidTransactions)), ("refundedTransactions", .int(m.refundedTransactions)),
                                 ("rate", .double(m.refundRate))])),
            ("trialConversion", .object([("started", .int(m.trialsStarted)), ("converted", .int(m.trialsConverted)), ("pending", .int(m.trialsPending)),
                                         ("abandoned", .int(m.trialsAbandoned)), ("rate", .double(m.trialConversionRate))])),
            ("conversion", .object([("newCustomers", .int(m.newCustomers)), ("initialConversions", .int(m.initialConversions)),
                                    ("initialConversionRate", .double(m.initialConversionRate)), ("payingConversions", .int(m.payingConversions)),
                                    ("conversionToPayingRate", .double(m.conversionToPayingRate))])),
            ("realizedLTV", .object([("customers", .int(m.newCustomers)), ("payingCustomers", .int(m.lifetimePayingCustomers)),
                                     ("currencies", .array(lifetimeCurrencies.map { c in
                                         let r = m.lifetimeRevenue[c]!
                                         return .object([("currency", .string(c)), ("revenue", money(r)),
                                                         ("perCustomer", money(AnalystMetrics.perCustomer(r, m.newCustomers))),
                                                         ("perPayingCustomer", money(AnalystMetrics.perCustomer(r, m.lifetimePayingCustomers)))])
                                     }))])),
            ("arpu", .object([("activeCustomers", segmented ? .null : .int(m.activeCustomers)), ("payingCustomers", .int(m.payingCustomers)),
                              ("currencies", .array(revenueCurrencies.map { c in
                                  let r = m.revenue[c]!
                                  return .object([("currency", .string(c)), ("revenue", money(r)),
                                                  ("arpu", segmented ? .null : money(AnalystMetrics.perCustomer(r, m.activeCustomers))),
                                                  ("arppu", money(AnalystMetrics.perCustomer(r, m.payingCustomers)))])
                              }))])),
        ]
    }

    /// Table and CSV rows (metric, currency, value) of one set of metrics.
    static func rows(_ m: AnalystMetrics, segmented: Bool) -> [[String]] {
        var out: [[String]] = [
            ["new subscriptions", "", "\(m.newSubscriptions)"], ["resubscribed", "", "\(m.resubscribed)"], ["churned", "", "\(m.churned)"],
            ["active subscriptions", "", "\(m.active)"],
        ]
        for c in m.mrr.keys.sorted() {
            let x = m.mrr[c]!
            out += [["new MRR", c, x.new.description], ["resubscription MRR", c, x.resubscription.description], ["expansion MRR", c, x.expansion.description],
                    ["contraction MRR", c, x.contraction.description], ["churned MRR", c, x.churned.description], ["net MRR movement", c, x.net.description],
                    ["MRR", c, x.mrr.description], ["ARR", c, x.arr.description]]
        }
        out += [["paid transactions", "", "\(m.paidTransactions)"], ["refunded transactions", "", "\(m.refundedTransactions)"],
                ["refund rate", "", SeriesCommands.percent(m.refundRate)],
                ["trials started", "", "\(m.trialsStarted)"], ["trials converted", "", "\(m.trialsConverted)"], ["trials pending", "", "\(m.trialsPending)"],
                ["trials abandoned", "", "\(m.trialsAbandoned)"], ["trial conversion", "", SeriesCommands.percent(m.trialConversionRate)],
                ["new customers", "", "\(m.newCustomers)"], ["initial conversion", "", SeriesCommands.percent(m.initialConversionRate)],
                ["conversion to paying", "", SeriesCommands.percent(m.conversionToPayingRate)],
                ["paying customers in lifetime", "", "\(m.lifetimePayingCustomers)"]]
        for c in m.lifetimeRevenue.keys.sorted() {
            let r = m.lifetimeRevenue[c]!
            out += [["realized LTV per customer", c, AnalystMetrics.perCustomer(r, m.newCustomers).description],
                    ["realized LTV per paying customer", c, AnalystMetrics.perCustomer(r, m.lifetimePayingCustomers).description]]
        }
        if !segmented { out.append(["active customers", "", "\(m.activeCustomers)"]) }
        out.append(["paying customers", "", "\(m.payingCustomers)"])
        for c in m.revenue.keys.sorted() {
            let r = m.revenue[c]!
            out.append(["revenue", c, r.description])
            if !segmented { out.append(["ARPU", c, AnalystMetrics.perCustomer(r, m.activeCustomers).description]) }
            out.append(["ARPPU", c, AnalystMetrics.perCustomer(r, m.payingCustomers).description])
        }
        return out
    }
}
