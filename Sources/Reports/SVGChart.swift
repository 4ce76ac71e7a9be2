import Foundation

/// One chart as inline SVG: bars or lines over dated categories, with a title, an accessible
/// `<title>`/`<desc>`, labelled axes, tick labels, a legend when there is more than one series,
/// and a tooltip per point naming its number. A point without a value is a gap (a rate with
/// nothing to divide), never interpolated; a zero is drawn as zero (a zero bar as a thin bar on the axis).
struct SVGChart {
    /// `horizontalBars`: one row of bars per category, the categories down the left (SVGChart+HorizontalBars.swift).
    enum Kind { case line, bars, horizontalBars }
    struct Series {
        var name: String
        var points: [ReportValue?]
        var color: String
    }

    var id: String
    var title: String
    var desc: String
    var xLabel: String
    var yLabel: String
    var categories: [String]
    var series: [Series]
    var kind: Kind
    /// Tick labels of the vertical axis.
    var tick: (Double) -> String = HumanFormat.compact
    /// Bars show their number above them.
    var valueLabels = false
    var width = 760.0
    var height = 300.0

    static let palette = ["#1b6ac9", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0b7285"]

    private var left: Double { 72 }
    private var right: Double { 16 }
    private var top: Double { series.count > 1 ? 44 : 24 }
    private var bottom: Double { 56 }

    var svg: String {
        if kind == .horizontalBars { return horizontalBarsSVG }
        let values = series.flatMap { $0.points.compactMap { $0?.number } }
        var (lo, hi, step) = Self.scale(min: min(0, values.min() ?? 0), max: max(values.max() ?? 0, 0))
        // Counts of users or events: no tick between two whole numbers.
        if step < 1, values.allSatisfy({ $0 == $0.rounded() }), tick(0.5) != HumanFormat.percent(0.5) {
            step = 1
            hi = max(1, hi.rounded(.up))
        }
        let plotW = width - left - right, plotH = height - top - bottom
        func y(_ v: Double) -> Double { top + plotH - (v - lo) / (hi - lo) * plotH }
        let n = max(categories.count, 1)
        let slot = plotW / Double(n)
        func x(_ i: Int) -> Double { left + slot * (Double(i) + 0.5) }
        let e = HumanFormat.escaped
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" aria-labelledby=\"\(id)-t \(id)-d\">"
        s += "<title id=\"\(id)-t\">\(e(title))</title><desc id=\"\(id)-d\">\(e(desc))</desc>"
        // Grid and vertical axis ticks.
        var t = lo
        while t <= hi + step / 2 {
            let yy = y(t)
            s += "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(yy))\" y2=\"\(f(yy))\" stroke=\"#e3e6ea\"/>"
            s += "<text data-label=\"tick\" x=\"\(f(left - 6))\" y=\"\(f(yy + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"#555\">\(e(tick(t)))</text>"
            t += step
        }
        s += "<line x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\" stroke=\"#888\"/>"
        s += "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(y(0)))\" y2=\"\(f(y(0)))\" stroke=\"#888\"/>"
        // Category labels: at most seven, evenly spaced (a date is about 70 pixels wide).
        let every = max(1, Int((Double(categories.count) / 7).rounded(.up)))
        for (i, c) in categories.enumerated() where i % every == 0 {
            s += "<text data-label=\"date\" x=\"\(f(x(i)))\" y=\"\(f(top + plotH + 16))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">\(e(c))</text>"
        }
        s += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\" font-size=\"12\" fill=\"#222\">\(e(xLabel))</text>"
        s += "<text transform=\"translate(14 \(f(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\" font-size=\"12\" fill=\"#222\">\(e(yLabel))</text>"
        switch kind {
        case .bars:
            let groupW = slot * 0.8, barW = groupW / Double(max(series.count, 1))
            for (k, ser) in series.enumerated() {
                for (i, p) in ser.points.enumerated() {
                    guard let p else { continue }
                    let x0 = x(i) - groupW / 2 + barW * Double(k)
                    var (y0, y1) = (y(max(p.number, 0)), y(min(p.number, 0)))
                    // A zero is drawn: a 2-pixel bar on the axis, where a bucket without a value has none.
                    let zero = p.number == 0
                    if zero { y0 -= 2; y1 = y0 + 2 }
                    s += "<rect class=\"bar\"\(zero ? " data-zero=\"1\"" : "") x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(max(barW - 1, 1)))\" height=\"\(f(max(y1 - y0, 0)))\" fill=\"\(ser.color)\">"
                    s += "<title \(p.attributes)>\(e(categories[i])) · \(e(ser.name)): \(e(p.text))</title></rect>"
                    if valueLabels {
                        s += "<text \(p.attributes) x=\"\(f(x0 + barW / 2))\" y=\"\(f(y0 - 4))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#222\">\(e(p.text))</text>"
                    }
                }
            }
        case .horizontalBars:
            break
        case .line:
            for ser in series {
                // A gap (no value) breaks the line.
                var path = "", pen = false
                for (i, p) in ser.points.enumerated() {
                    guard let p else { pen = false; continue }
                    path += (pen ? " L" : " M") + "\(f(x(i))) \(f(y(p.number)))"
                    pen = true
                }
                if !path.isEmpty { s += "<path class=\"line\" d=\"\(path)\" fill=\"none\" stroke=\"\(ser.color)\" stroke-width=\"2\"/>" }
                for (i, p) in ser.points.enumerated() {
                    guard let p else { continue }
                    s += "<circle cx=\"\(f(x(i)))\" cy=\"\(f(y(p.number)))\" r=\"\(categories.count > 60 ? 1.5 : 3)\" fill=\"\(ser.color)\">"
                    s += "<title \(p.attributes)>\(e(categories[i])) · \(e(ser.name)): \(e(p.text))</title></circle>"
                }
            }
        }
        if series.count > 1 {
            var lx = left
            for ser in series {
                s += "<rect x=\"\(f(lx))\" y=\"8\" width=\"12\" height=\"12\" fill=\"\(ser.color)\"/>"
                s += "<text x=\"\(f(lx + 16))\" y=\"18\" font-size=\"12\" fill=\"#222\">\(e(ser.name))</text>"
                lx += 28 + Double(ser.name.count) * 7
            }
        }
        return s + "</svg>"
    }

    /// A scale from `min` to `max` in four or five round steps (1, 2 or 5 times a power of ten).
    static func scale(min lo: Double, max hi: Double) -> (Double, Double, Double) {
        let span = hi - lo
        guard span > 0 else { return (lo, lo + 1, 0.25) }
        let raw = span / 4
        let p = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * p }.first { $0 >= raw } ?? 10 * p
        return (floor(lo / step) * step, ceil(hi / step) * step, step)
    }

    private func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
