import Projections
import SubscriptionDomain

/// The report as one self-contained HTML page: inline SVG and CSS, no script, nothing fetched.
/// Each data number is a `ReportValue` tied to the JSON output it equals (its `data-k` key:
/// `counts`, `funnel`, `revenue`, `notifications`, `diff` as of the instant; `revenue-BY` and
/// `funnel-BY` (`revenue-week`, `funnel-quarter`…) for the series `--by BY` to the instant;
/// the path after `|` is a JSON pointer whose steps may also be `name[field=value]`, the element of
/// array `name` whose `field` is `value`: syntax in docs/commands.md, *The report's data-k*).
public enum ReportPage {
    /// The head the figures reflect; over partition logs, each log's.
    static func headLines(_ r: ReportInput) -> String {
        let e = HumanFormat.escaped
        guard r.partitionHeads.count > 1, r.partitionHeads.count == r.logs.count else {
            return "<dt>log head</dt><dd>position \(r.headPosition), hash <code>\(e(r.headHash))</code></dd>"
        }
        return zip(r.logs, r.partitionHeads).map { log, head in
            "<dt>log head</dt><dd>\(e(log)): position \(head.position), hash <code>\(e(head.hash))</code></dd>"
        }.joined(separator: "\n")
    }

    public static func html(_ r: ReportInput) -> String {
        let e = HumanFormat.escaped
        var h = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Subscription ledger report · \(e(r.profile)) · \(e(r.instant.description))</title>
        <style>\(css)</style></head><body>
        <h1>Subscription ledger report</h1>
        <dl class="meta" data-label="meta">
        <dt>log</dt><dd>\(e(r.logs.joined(separator: ", ")))</dd>
        <dt>profile</dt><dd>\(e(r.profile))\(r.comparison.map { " (compared with \(e($0.profile)))" } ?? "")</dd>
        <dt>as of</dt><dd><time>\(e(r.instant.description))</time></dd>\(r.from.map { "\n<dt>window</dt><dd>from <time>\(e($0.description))</time> to <time>\(e(r.instant.description))</time></dd>" } ?? "")\(r.knownAt.map { "\n<dt>as known at</dt><dd><time>\(e($0.description))</time>: the log's records recorded by then (the head below is that prefix's)</dd>" } ?? "")
        \(headLines(r))
        </dl>
        <p class="note">Every figure is what \(r.from.map { "<code>replay-tool counts|funnel|revenue --from <time>\(e($0.description))</time> --to <time>\(e(r.instant.description))</time></code> and <code>notifications --at <time>\(e(r.instant.description))</time></code>" } ?? "<code>replay-tool counts|funnel|revenue|notifications --at <time>\(e(r.instant.description))</time></code>") (and the same with <code>--by \(r.fine.buckets.by.rawValue)</code> or <code>--by \(r.coarse.buckets.by.rawValue)</code>) prints for this log at this head\(r.knownAt.map { ", with <code>--as-known-at <time>\(e($0.description))</time></code>" } ?? ""); definitions in docs/rules.md.</p>

        """
        if let restatement = r.restatement { h += section("As known at \(restatement.knownAt) and now", restatementSection(restatement)) }
        h += section("Paywall funnel by context", funnelCharts(r.funnel))
        let (fine, coarse) = (r.fine.buckets.by.rawValue, r.coarse.buckets.by.rawValue)
        h += section("Trial conversion by \(fine)ly cohort".replacingOccurrences(of: "dayly", with: "daily"), trialChart(r.fine))
        h += section("MRR, active subscriptions and active trials", stockCharts(r.fine))
        h += section("Revenue and refunds per \(coarse)", revenueCharts(r.coarse))
        h += section("Churn", churnChart(r.fine))
        h += analystSections(r)
        if let segments = r.segments { h += section("By \(segments.segment)", segmentSection(segments)) }
        h += section("Subscription retention by start \(coarse)", retentionTable(r.coarse))
        h += section("Revenue as of the instant", revenueTable(r.revenue))
        h += section("Event counts", countsTable(r.counts))
        h += section("Notification schedule", notificationTable(r.notifications))
        if let c = r.comparison {
            let (a, b) = (profileLabel(r.profile), profileLabel(c.profile))
            h += "<section><h2>Rule change: \(a) → \(b)</h2>\n\(diffTable(c.differences, a: a, b: b))\n</section>\n"
        }
        return h + "</body></html>\n"
    }

    static let css = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;max-width:1100px;margin:24px auto;padding:0 16px;background:#fff}
    svg{max-width:100%;height:auto}table{max-width:100%}td,th{overflow-wrap:anywhere}table.retention td small{color:inherit;opacity:.85}
    h1{font-size:24px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
    dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{color:#666}dd{margin:0}code{font-size:12px;word-break:break-all}
    .note{color:#555;font-size:12px}figure{margin:8px 0 16px;display:inline-block;vertical-align:top}figcaption{font-weight:600;margin-bottom:4px}
    table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
    th{background:#f4f5f7}.empty{color:#777;font-style:italic}
    @media print{body{margin:0}section,figure,table{break-inside:avoid}}
    """

    static func section(_ title: String, _ body: String) -> String {
        "<section><h2>\(HumanFormat.escaped(title))</h2>\n\(body)\n</section>\n"
    }

    static func figure(_ chart: SVGChart) -> String {
        "<figure><figcaption>\(HumanFormat.escaped(chart.title))</figcaption>\(chart.svg)</figure>\n"
    }

    static func pointer(_ s: String) -> String { s.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }

    static func day(_ t: Timestamp) -> String { String(t.description.prefix(10)) }

    // MARK: charts

    /// One bar chart per context (all users first): users per step with the step's rate, and the
    /// drop-off (users lost) between steps.
    static func funnelCharts(_ f: FunnelReport) -> String {
        var out = ""
        let groups = [("all users", "/steps", f.steps)] + f.byContext.sorted { $0.key < $1.key }.map { ("context " + $0.key, "/byContext/" + pointer($0.key), $0.value) }
        for (n, (name, path, steps)) in groups.enumerated() {
            guard !steps.isEmpty else { continue }
            let users = steps.enumerated().map { ReportValue.int("funnel|\(path)/\($0.offset)/users", $0.element.users) }
            var chart = SVGChart(id: "funnel\(n)", title: "Funnel: \(name)",
                                 desc: "Users reaching each paywall step, each after the one before, for \(name), as of the instant.",
                                 xLabel: "step", yLabel: "users", categories: steps.map(\.name),
                                 series: [.init(name: "users", points: users, color: SVGChart.palette[0])], kind: .bars)
            chart.valueLabels = true
            chart.width = 520
            chart.height = 260
            var rows = "<table><tr><th>step</th><th>users</th><th>rate</th><th>drop-off</th></tr>"
            for (i, s) in steps.enumerated() {
                let rate = ReportValue.rate("funnel|\(path)/\(i)/rate", s.rate)
                let drop = i == 0 ? "<td></td>" : ReportValue.int("funnel|drop|\(path)/\(i)", steps[i - 1].users - s.users).cell()
                rows += "<tr><td>\(HumanFormat.escaped(s.name))</td>\(users[i].cell())\(rate.cell())\(drop)</tr>"
            }
            out += "<div>" + figure(chart) + "<figure><figcaption>Rates and drop-off: \(HumanFormat.escaped(name))</figcaption>" + rows + "</table></figure></div>\n"
        }
        let trial = [ReportValue.int("funnel|/trial/started", f.trialsStarted), ReportValue.int("funnel|/trial/converted", f.trialsConverted)]
        let rate = Rates.trialConversion(started: f.trialsStarted, converted: f.trialsConverted)
        out += "<p>Trials started \(trial[0].span), converted \(trial[1].span) (\(ReportValue.rate("funnel|/trial/rate", rate).span)).</p>"
        return out
    }

    /// The key prefix of a series' numbers: `revenue-week`, `funnel-quarter`.
    static func key(_ output: String, _ s: LedgerSeries) -> String { "\(output)-\(s.buckets.by.rawValue)" }

    /// Each bucket's tick label: the calendar period it belongs to (a week by its Monday).
    static func labels(_ s: LedgerSeries) -> [String] { s.rows.map { ReportSpan.label($0.start, s.buckets.by) } }

    static func trialChart(_ s: LedgerSeries) -> String {
        let unit = ReportSpan.unit(s.buckets.by), k = key("funnel", s)
        guard !s.rows.isEmpty else { return "<p class=\"empty\">No \(unit)s.</p>" }
        let points = s.rows.enumerated().map { i, b -> ReportValue? in
            b.funnel.trialsStarted == 0 ? nil : ReportValue.rate("\(k)|/buckets/\(i)/trial/rate", Rates.trialConversion(started: b.funnel.trialsStarted, converted: b.funnel.trialsConverted))
        }
        let started = s.rows.enumerated().map { ReportValue.int("\(k)|/buckets/\($0.offset)/trial/started", $0.element.funnel.trialsStarted) }
        var rate = SVGChart(id: "trial", title: "Trial conversion by \(unit) of trial start",
                            desc: "Share of the trials started each \(unit) (UTC) that converted to a paid period by the instant; a \(unit) without a trial is a gap, one whose trials all lapsed is a bar at zero.",
                            xLabel: "\(unit) of trial start (UTC\(unit == "week" ? ", weeks start Monday" : ""))", yLabel: "converted (% of trials started)",
                            categories: labels(s), series: [.init(name: "conversion", points: points, color: SVGChart.palette[2])], kind: .bars)
        rate.tick = HumanFormat.percent
        let count = SVGChart(id: "trials", title: "Trials started per \(unit)",
                             desc: "Trials started each \(unit) (UTC).", xLabel: ReportSpan.axis(s.buckets.by), yLabel: "trials started",
                             categories: labels(s), series: [.init(name: "trials started", points: started, color: SVGChart.palette[1])], kind: .bars)
        return figure(rate) + figure(count)
    }

    static func currencies(_ s: LedgerSeries) -> [String] { Array(Set(s.rows.flatMap { $0.revenue.lines.map(\.currency) })).sorted() }

    static func stockCharts(_ s: LedgerSeries) -> String {
        let unit = ReportSpan.unit(s.buckets.by), k = key("revenue", s)
        guard !s.rows.isEmpty else { return "<p class=\"empty\">No \(unit)s.</p>" }
        let dates = labels(s), axis = ReportSpan.axis(s.buckets.by) + ", value at its end"
        var out = ""
        for (n, c) in currencies(s).enumerated() {
            let points = s.rows.enumerated().map { i, b in
                ReportValue.money("\(k)|/buckets/\(i)/currencies[currency=\(c)]/mrr", b.revenue.lines.first { $0.currency == c }?.mrr ?? .zero, c)
            }
            out += figure(SVGChart(id: "mrr\(n)", title: "MRR (\(c)) at the end of each \(unit)",
                                   desc: "Monthly recurring revenue in \(c) of the active paid subscriptions at each \(unit)'s end, each normalised to one month.",
                                   xLabel: axis, yLabel: "MRR (\(c) per month)", categories: dates,
                                   series: [.init(name: "MRR \(c)", points: points, color: SVGChart.palette[0])], kind: .line))
        }
        let subs = s.rows.enumerated().map { ReportValue.int("\(k)|/buckets/\($0.offset)/activeSubscriptions", $0.element.revenue.activeSubscriptions) }
        let trials = s.rows.enumerated().map { ReportValue.int("\(k)|/buckets/\($0.offset)/activeTrials", $0.element.revenue.activeTrials) }
        out += figure(SVGChart(id: "active", title: "Active subscriptions and active trials at the end of each \(unit)",
                               desc: "Users in pro or pro grace (active subscriptions) and in trial (active trials) at each \(unit)'s end.",
                               xLabel: axis, yLabel: "users", categories: dates,
                               series: [.init(name: "active subscriptions", points: subs, color: SVGChart.palette[0]),
                                        .init(name: "active trials", points: trials, color: SVGChart.palette[2])], kind: .line))
        return out
    }

    static func revenueCharts(_ s: LedgerSeries) -> String {
        let list = currencies(s)
        guard !list.isEmpty else { return "<p class=\"empty\">No revenue.</p>" }
        let unit = ReportSpan.unit(s.buckets.by), k = key("revenue", s)
        var out = ""
        for (n, c) in list.enumerated() {
            func points(_ field: String, _ pick: (RevenueReport.Line) -> Money) -> [ReportValue?] {
                s.rows.enumerated().map { i, b in
                    ReportValue.money("\(k)|/buckets/\(i)/currencies[currency=\(c)]/\(field)", b.revenue.lines.first { $0.currency == c }.map(pick) ?? .zero, c)
                }
            }
            var chart = SVGChart(id: "rev\(n)", title: "Revenue and refunds per \(unit) (\(c))",
                                 desc: "Gross revenue charged, refunds, and net revenue after the store's commission, in \(c), per calendar \(unit) (UTC).",
                                 xLabel: ReportSpan.axis(s.buckets.by), yLabel: "\(c)", categories: labels(s),
                                 series: [.init(name: "gross", points: points("gross", \.gross), color: SVGChart.palette[0]),
                                          .init(name: "refunds", points: points("refunded", \.refunded), color: SVGChart.palette[1]),
                                          .init(name: "net", points: points("net", \.net), color: SVGChart.palette[2])], kind: .bars)
            chart.valueLabels = s.rows.count <= 6
            out += figure(chart)
        }
        return out
    }

    static func churnChart(_ s: LedgerSeries) -> String {
        let unit = ReportSpan.unit(s.buckets.by), k = key("revenue", s)
        guard !s.rows.isEmpty else { return "<p class=\"empty\">No \(unit)s.</p>" }
        let rate = s.rows.enumerated().map { i, b -> ReportValue? in
            b.revenue.churnedSubscribers + b.revenue.activeSubscriptions == 0 ? nil : ReportValue.rate("\(k)|/buckets/\(i)/churnRate", b.revenue.churnRate)
        }
        let churned = s.rows.enumerated().map { ReportValue.int("\(k)|/buckets/\($0.offset)/churnedSubscribers", $0.element.revenue.churnedSubscribers) }
        let axis = ReportSpan.axis(s.buckets.by) + ", value at its end"
        var chart = SVGChart(id: "churn", title: "Churn rate at the end of each \(unit)",
                             desc: "Churned subscribers as a share of churned plus active subscriptions at each \(unit)'s end; a \(unit) with neither is a gap.",
                             xLabel: axis, yLabel: "churn rate (%)", categories: labels(s),
                             series: [.init(name: "churn rate", points: rate, color: SVGChart.palette[1])], kind: .line)
        chart.tick = HumanFormat.percent
        let count = SVGChart(id: "churned", title: "Churned subscribers at the end of each \(unit)",
                             desc: "Users who paid and are no longer subscribed, at each \(unit)'s end.", xLabel: axis, yLabel: "users",
                             categories: labels(s), series: [.init(name: "churned", points: churned, color: SVGChart.palette[3])], kind: .line)
        return figure(chart) + figure(count)
    }

    /// Cohorts by the period (month, quarter, year) of their first paid period: for 1…12 periods
    /// later, the share still subscribed of the subscribers measured (those whose n-th period has
    /// come by the instant), shown with both counts and shaded by the share; periods not yet
    /// reached are blank, and a cohort without a subscriber is left out.
    static func retentionTable(_ s: LedgerSeries) -> String {
        let periods = s.rows.flatMap { $0.retention.periods.map(\.period) }.max() ?? 0
        guard periods > 0 else { return "<p class=\"empty\">No subscriber has a full period behind them yet.</p>" }
        let unit = ReportSpan.unit(s.buckets.by), k = key("funnel", s)
        var t = "<table class=\"retention\"><caption>Each cell: the share of the cohort's subscribers measured after n periods (their n-th period has come by the instant) who are still subscribed, and how many that is. A blank cell: no subscriber of the cohort is that far yet. Cohorts without a new subscriber are left out.</caption>"
        t += "<tr><th>start \(unit)</th><th>subscribers (first paid period)</th>"
        for p in 1...periods { t += "<th>after <span data-label=\"period\">\(p)</span></th>" }
        t += "</tr>"
        for (i, b) in s.rows.enumerated() where b.retention.subscribers > 0 {
            t += "<tr><td><time data-label=\"date\">\(ReportSpan.label(b.start, s.buckets.by))</time></td>"
            t += ReportValue.int("\(k)|/buckets/\(i)/retention/subscribers", b.retention.subscribers).cell()
            for p in 1...periods {
                if let x = b.retention.periods.first(where: { $0.period == p }) {
                    let path = "\(k)|/buckets/\(i)/retention/periods[period=\(p)]/"
                    let light = Int(96 - x.rate * 50)
                    t += "<td class=\"n\" style=\"background:hsl(212,70%,\(light)%)\(light < 60 ? ";color:#fff" : "")\">"
                        + ReportValue.rate(path + "rate", x.rate).span + "<br><small>" + ReportValue.int(path + "retained", x.retained).span
                        + " of " + ReportValue.int(path + "measured", x.measured).span + " measured</small></td>"
                } else {
                    t += "<td></td>"
                }
            }
            t += "</tr>"
        }
        return t + "</table>"
    }

    static func revenueTable(_ r: RevenueReport) -> String {
        var t = "<table><tr><th>currency</th><th>gross</th><th>refunded</th><th>net</th><th>MRR</th></tr>"
        for l in r.lines {
            let k = "revenue|/currencies[currency=\(l.currency)]/"
            t += "<tr><td>\(HumanFormat.escaped(l.currency))</td>" + ReportValue.money(k + "gross", l.gross, l.currency).cell()
                + ReportValue.money(k + "refunded", l.refunded, l.currency).cell() + ReportValue.money(k + "net", l.net, l.currency).cell()
                + ReportValue.money(k + "mrr", l.mrr, l.currency).cell() + "</tr>"
        }
        t += "</table><table><tr><th>active subscriptions</th><th>active trials</th><th>churned subscribers</th><th>churn rate</th><th>trial conversion</th></tr><tr>"
        t += ReportValue.int("revenue|/activeSubscriptions", r.activeSubscriptions).cell() + ReportValue.int("revenue|/activeTrials", r.activeTrials).cell()
            + ReportValue.int("revenue|/churnedSubscribers", r.churnedSubscribers).cell() + ReportValue.rate("revenue|/churnRate", r.churnRate).cell()
            + ReportValue.rate("revenue|/trialConversionRate", r.trialConversionRate).cell()
        return t + "</tr></table>"
    }

    static func countsTable(_ counts: [String: Int]) -> String {
        var t = "<table><tr><th>metric</th><th>events</th></tr>"
        for name in LedgerSnapshot.metricNames {
            t += "<tr><td>\(HumanFormat.escaped(name))</td>" + ReportValue.int("counts|/\(name)", counts[name] ?? 0).cell() + "</tr>"
        }
        return t + "</table>"
    }

    /// Entries by kind and status (cancelled: a trial that ended early drops its reminder), and
    /// how many go in-app only (push off).
    static func notificationTable(_ n: NotificationSummary) -> String {
        var t = "<table><tr><th>kind</th><th>due</th><th>scheduled</th><th>cancelled (suppressed)</th><th>in-app only</th></tr>"
        for kind in [ScheduledNotification.Kind.trialEnding, .paymentFailed] {
            t += "<tr><td>\(kind.rawValue)</td>"
            for status in [ScheduledNotification.Status.due, .scheduled, .cancelled] {
                t += ReportValue.int("notifications|kind=\(kind.rawValue)&status=\(status.rawValue)", n.count(kind, status)).cell()
            }
            t += ReportValue.int("notifications|kind=\(kind.rawValue)&channels=in_app", n.inAppOnly[kind] ?? 0).cell()
            t += "</tr>"
        }
        return t + "</table>"
    }

    /// A profile's name or path, as a label (not a figure).
    static func profileLabel(_ p: String) -> String { "<span data-label=\"profile\">\(HumanFormat.escaped(p))</span>" }

    /// A plan as `replay-tool diff` prints it: the state, the grace reason, and until when the grace lasts.
    static func planText(_ v: PlanView) -> String {
        HumanFormat.escaped(v.planState.rawValue + (v.graceReason.map { " (\($0.rawValue))" } ?? ""))
            + (v.graceEndsAt.map { " until <time>\(HumanFormat.escaped($0.description))</time>" } ?? "")
    }

    /// `a` and `b` are labels already escaped.
    static func diffTable(_ d: [PlanDifference], a: String, b: String) -> String {
        let e = HumanFormat.escaped
        var t = "<p>\(ReportValue.int("diff|count", d.count).span) user(s) in a different state as of the instant.</p>"
        guard !d.isEmpty else { return t }
        t += "<table><tr><th>user</th><th>differs in</th><th>A: \(a)</th><th>B: \(b)</th></tr>"
        for x in d.prefix(50) {
            t += "<tr><td data-label=\"user\">\(e(x.user))</td><td>\(e(x.fields.joined(separator: ", ")))</td><td>\(planText(x.a))</td><td>\(planText(x.b))</td></tr>"
        }
        if d.count > 50 { t += "<tr><td colspan=\"4\" class=\"empty\">and more: <code>replay-tool diff</code> lists them all</td></tr>" }
        return t + "</table>"
    }
}
