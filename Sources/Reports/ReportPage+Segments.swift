import Projections
import SubscriptionDomain

extension ReportPage {
    /// `report --by-segment S`: a table row and a bar per segment value (`all` first) of the headline
    /// figures as of the instant: active subscriptions and trials (`revenue-segment-S`), trials started
    /// and converted (`funnel-segment-S`), and net revenue and MRR per currency. Every number is tied
    /// to `OUTPUT-segment-S|/…` for `all` (the JSON's top-level fields) and `OUTPUT-segment-S|/segments/i/…`
    /// for the value at index i of the JSON's `segments`; a currency a value has no line for is a gap.
    static func segmentSection(_ g: ReportSegments) -> String {
        let e = HumanFormat.escaped, rk = "revenue-segment-\(g.segment)", fk = "funnel-segment-\(g.segment)"
        func path(_ index: Int?) -> String { index.map { "/segments/\($0)" } ?? "" }
        func revenue(_ row: ReportSegments.Row, _ field: String, _ pick: (RevenueReport) -> Int) -> ReportValue? {
            row.revenue.map { ReportValue.int("\(rk)|\(path(row.revenueIndex))/\(field)", pick($0)) }
        }
        func trials(_ row: ReportSegments.Row, _ field: String, _ pick: (FunnelReport) -> Int) -> ReportValue? {
            row.funnel.map { ReportValue.int("\(fk)|\(path(row.funnelIndex))/trial/\(field)", pick($0)) }
        }
        func money(_ row: ReportSegments.Row, _ c: String, _ field: String, _ pick: (RevenueReport.Line) -> Money) -> ReportValue? {
            row.revenue?.lines.first { $0.currency == c }.map { ReportValue.money("\(rk)|\(path(row.revenueIndex))/currencies[currency=\(c)]/\(field)", pick($0), c) }
        }
        let names = g.rows.map(\.name)
        let subs = g.rows.map { revenue($0, "activeSubscriptions", \.activeSubscriptions) }, active = g.rows.map { revenue($0, "activeTrials", \.activeTrials) }
        let started = g.rows.map { trials($0, "started", \.trialsStarted) }, converted = g.rows.map { trials($0, "converted", \.trialsConverted) }
        let currencies = Set(g.rows.flatMap { $0.revenue?.lines.map(\.currency) ?? [] }).sorted()

        var h = "<p class=\"note\">Each user in one \(e(g.segment)), decided by their own events up to the instant (docs/rules.md, <i>Segments of the reports</i>); the values add up to <i>all</i>. The figures are <code>replay-tool revenue|funnel --by-segment \(e(g.segment))</code> at the same instant.</p>\n"
        func cell(_ v: ReportValue?) -> String { v?.cell() ?? "<td></td>" }
        h += "<table class=\"segments\"><tr><th>\(e(g.segment))</th><th>active subscriptions</th><th>active trials</th><th>trials started</th><th>trials converted</th></tr>"
        for (i, name) in names.enumerated() {
            h += "<tr><td data-label=\"segment\">\(e(name))</td>\(cell(subs[i]))\(cell(active[i]))\(cell(started[i]))\(cell(converted[i]))</tr>"
        }
        h += "</table>\n"
        if !currencies.isEmpty {
            h += "<table class=\"segments\"><tr><th>\(e(g.segment))</th><th>currency</th><th>net revenue</th><th>MRR</th></tr>"
            for row in g.rows {
                for c in currencies {
                    guard let net = money(row, c, "net", \.net), let mrr = money(row, c, "mrr", \.mrr) else { continue }
                    h += "<tr><td data-label=\"segment\">\(e(row.name))</td><td>\(e(c))</td>\(net.cell())\(mrr.cell())</tr>"
                }
            }
            h += "</table>\n"
        }
        func chart(_ id: String, _ title: String, _ desc: String, _ axis: String, _ series: [SVGChart.Series]) -> String {
            var c = SVGChart(id: id, title: title, desc: desc, xLabel: g.segment, yLabel: axis, categories: names, series: series, kind: .horizontalBars)
            c.width = 520
            c.valueLabels = true
            return figure(c)
        }
        h += "<div>"
        h += chart("segactive", "Active subscriptions and active trials by \(g.segment)",
                   "Users in pro or pro grace (active subscriptions) and in trial (active trials) as of the instant, every user (all) and each \(g.segment)'s.",
                   "users", [.init(name: "active subscriptions", points: subs, color: SVGChart.palette[0]), .init(name: "active trials", points: active, color: SVGChart.palette[2])])
        h += chart("segtrials", "Trials started and converted by \(g.segment)",
                   "Trials started by the instant and how many of them converted to a paid period, every user (all) and each \(g.segment)'s.",
                   "trials", [.init(name: "started", points: started, color: SVGChart.palette[0]), .init(name: "converted", points: converted, color: SVGChart.palette[2])])
        for (n, c) in currencies.enumerated() {
            h += chart("segmoney\(n)", "Net revenue and MRR by \(g.segment) (\(c))",
                       "Net revenue in \(c) after refunds and the store's commission, and MRR in \(c) as of the instant, every user (all) and each \(g.segment)'s; a \(g.segment) without \(c) has no bar.",
                       "\(c)", [.init(name: "net revenue", points: g.rows.map { money($0, c, "net", \.net) }, color: SVGChart.palette[0]),
                                .init(name: "MRR", points: g.rows.map { money($0, c, "mrr", \.mrr) }, color: SVGChart.palette[3])])
        }
        return h + "</div>"
    }
}
