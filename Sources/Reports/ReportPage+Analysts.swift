import Projections
import SubscriptionDomain

extension ReportPage {
    /// The analysts' metrics of each bucket of the page's fine series (`metrics --by BY`): MRR
    /// movement, the trial conversion split, the refund rate, ARPU and ARPPU. Every number is tied
    /// to `metrics-BY|/buckets/i/…`; a currency a bucket has no row for is a gap, as in the JSON.
    static func analystSections(_ r: ReportInput) -> String {
        guard let windows = r.analysts, windows.count == r.fine.rows.count else { return "" }
        let s = r.fine, unit = ReportSpan.unit(s.buckets.by), k = key("metrics", s), dates = labels(s), axis = ReportSpan.axis(s.buckets.by)
        func empty(_ what: String) -> String { "<p class=\"empty\">No \(what).</p>" }
        var out = ""

        // MRR movement, per currency.
        var mrr = ""
        for (n, c) in Set(windows.flatMap { $0.mrr.keys }).sorted().enumerated() {
            func points(_ field: String, _ pick: (AnalystMetrics.MRR) -> Money) -> [ReportValue?] {
                windows.enumerated().map { i, w in w.mrr[c].map { ReportValue.money("\(k)|/buckets/\(i)/mrr[currency=\(c)]/\(field)", pick($0), c) } }
            }
            mrr += figure(SVGChart(id: "mrrmove\(n)", title: "MRR movement per \(unit) (\(c))",
                                   desc: "MRR in \(c) gained (new, resubscription, expansion) and lost (contraction, churned) within each \(unit) (UTC), each normalised to one month.",
                                   xLabel: axis, yLabel: "\(c) per month", categories: dates,
                                   series: [.init(name: "new", points: points("new", \.new), color: SVGChart.palette[0]),
                                            .init(name: "resubscription", points: points("resubscription", \.resubscription), color: SVGChart.palette[2]),
                                            .init(name: "expansion", points: points("expansion", \.expansion), color: SVGChart.palette[3]),
                                            .init(name: "contraction", points: points("contraction", \.contraction), color: SVGChart.palette[4]),
                                            .init(name: "churned", points: points("churned", \.churned), color: SVGChart.palette[1])], kind: .bars))
        }
        out += section("MRR movement", mrr.isEmpty ? empty("MRR") : mrr)

        // Trial conversion split: converted, pending and abandoned add up to the trials started.
        func trial(_ field: String, _ pick: (AnalystMetrics) -> Int) -> [ReportValue?] {
            windows.enumerated().map { ReportValue.int("\(k)|/buckets/\($0.offset)/trialConversion/\(field)", pick($0.element)) }
        }
        out += section("Trial conversion: converted, pending, abandoned",
                       figure(SVGChart(id: "trialsplit", title: "Trials started per \(unit), by outcome",
                                       desc: "Of the trials started each \(unit) (UTC): converted to a paid period, still pending, and abandoned (ended without converting), as known at the instant; the three add up to the trials started.",
                                       xLabel: "\(unit) of trial start", yLabel: "trials", categories: dates,
                                       series: [.init(name: "converted", points: trial("converted", \.trialsConverted), color: SVGChart.palette[2]),
                                                .init(name: "pending", points: trial("pending", \.trialsPending), color: SVGChart.palette[0]),
                                                .init(name: "abandoned", points: trial("abandoned", \.trialsAbandoned), color: SVGChart.palette[1])], kind: .bars)))

        // Refund rate: refunded ÷ paid transactions charged in the bucket; a bucket without a charge is a gap.
        let rate = windows.enumerated().map { i, w in w.paidTransactions == 0 ? nil : ReportValue.rate("\(k)|/buckets/\(i)/refunds/rate", w.refundRate) }
        let paid = windows.enumerated().map { ReportValue.int("\(k)|/buckets/\($0.offset)/refunds/paidTransactions", $0.element.paidTransactions) }
        let refunded = windows.enumerated().map { ReportValue.int("\(k)|/buckets/\($0.offset)/refunds/refundedTransactions", $0.element.refundedTransactions) }
        var refundChart = SVGChart(id: "refundrate", title: "Refund rate per \(unit)",
                                   desc: "Share of the paid transactions charged each \(unit) (UTC) that were refunded, as known at the instant; a \(unit) without a charge is a gap.",
                                   xLabel: "\(unit) of the charge", yLabel: "refunded (% of paid transactions)", categories: dates,
                                   series: [.init(name: "refund rate", points: rate, color: SVGChart.palette[1])], kind: .bars)
        refundChart.tick = HumanFormat.percent
        out += section("Refund rate", figure(refundChart) + figure(SVGChart(
            id: "refunds", title: "Paid and refunded transactions per \(unit)", desc: "Paid transactions charged each \(unit) (UTC) and how many of them were refunded.",
            xLabel: "\(unit) of the charge", yLabel: "transactions", categories: dates,
            series: [.init(name: "paid", points: paid, color: SVGChart.palette[0]), .init(name: "refunded", points: refunded, color: SVGChart.palette[1])], kind: .bars)))

        // ARPU and ARPPU, per currency.
        var arpu = ""
        for (n, c) in Set(windows.flatMap { $0.revenue.keys }).sorted().enumerated() {
            func points(_ field: String, _ customers: (AnalystMetrics) -> Int) -> [ReportValue?] {
                windows.enumerated().map { i, w in
                    w.revenue[c].map { ReportValue.money("\(k)|/buckets/\(i)/arpu/currencies[currency=\(c)]/\(field)", AnalystMetrics.perCustomer($0, customers(w)), c) }
                }
            }
            arpu += figure(SVGChart(id: "arpu\(n)", title: "ARPU and ARPPU per \(unit) (\(c))",
                                    desc: "Revenue in \(c) charged each \(unit) (UTC), less its refunds, per customer active in it (ARPU) and per customer who paid in it (ARPPU).",
                                    xLabel: axis, yLabel: "\(c) per customer", categories: dates,
                                    series: [.init(name: "ARPU", points: points("arpu", \.activeCustomers), color: SVGChart.palette[0]),
                                             .init(name: "ARPPU", points: points("arppu", \.payingCustomers), color: SVGChart.palette[2])], kind: .line))
        }
        out += section("ARPU and ARPPU", arpu.isEmpty ? empty("revenue") : arpu)
        return out
    }
}
