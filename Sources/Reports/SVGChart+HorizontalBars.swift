import Foundation

extension SVGChart {
    /// Horizontal bars: one row per category (its name down the left, cut to 24 characters: the
    /// page's table names it in full), one bar per series in each row, the value axis along the
    /// bottom, each bar with its tooltip and, with `valueLabels`, its number after it. The height
    /// follows the rows (`height` is not used); a point without a value has no bar, a zero a thin one.
    var horizontalBarsSVG: String {
        let e = HumanFormat.escaped
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let names = categories.map { $0.count > 24 ? String($0.prefix(23)) + "…" : $0 }
        let left = min(190, max(64, 7 * Double(names.map(\.count).max() ?? 0) + 14)), right = valueLabels ? 84.0 : 16
        let top = series.count > 1 ? 36.0 : 12, bottom = 44.0
        let rowH = max(20, 12 * Double(series.count) + 10), plotH = rowH * Double(max(categories.count, 1)), plotW = width - left - right
        let height = top + plotH + bottom
        let values = series.flatMap { $0.points.compactMap { $0?.number } }
        var (lo, hi, step) = Self.scale(min: min(0, values.min() ?? 0), max: max(values.max() ?? 0, 0))
        // Counts of users: no tick between two whole numbers.
        if step < 1, values.allSatisfy({ $0 == $0.rounded() }), tick(0.5) != HumanFormat.percent(0.5) {
            step = 1
            hi = max(1, hi.rounded(.up))
        }
        func x(_ v: Double) -> Double { left + (v - lo) / (hi - lo) * plotW }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" aria-labelledby=\"\(id)-t \(id)-d\">"
        s += "<title id=\"\(id)-t\">\(e(title))</title><desc id=\"\(id)-d\">\(e(desc))</desc>"
        var t = lo
        while t <= hi + step / 2 {
            s += "<line x1=\"\(f(x(t)))\" x2=\"\(f(x(t)))\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\" stroke=\"#e3e6ea\"/>"
            s += "<text data-label=\"tick\" x=\"\(f(x(t)))\" y=\"\(f(top + plotH + 16))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">\(e(tick(t)))</text>"
            t += step
        }
        s += "<line x1=\"\(f(x(0)))\" x2=\"\(f(x(0)))\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\" stroke=\"#888\"/>"
        s += "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(top + plotH))\" y2=\"\(f(top + plotH))\" stroke=\"#888\"/>"
        s += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\" font-size=\"12\" fill=\"#222\">\(e(yLabel))</text>"
        let barH = (rowH - 8) / Double(max(series.count, 1))
        for (i, name) in names.enumerated() {
            let rowTop = top + rowH * Double(i)
            s += "<text data-label=\"segment\" x=\"\(f(left - 6))\" y=\"\(f(rowTop + rowH / 2 + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"#222\">\(e(name))</text>"
            for (k, ser) in series.enumerated() where i < ser.points.count {
                guard let p = ser.points[i] else { continue }
                let y0 = rowTop + 4 + barH * Double(k)
                var (x0, x1) = (x(min(p.number, 0)), x(max(p.number, 0)))
                // A zero is drawn: a 2-pixel bar on the axis, where a category without a value has none.
                let zero = p.number == 0
                if zero { x1 = x0 + 2 }
                s += "<rect class=\"bar\"\(zero ? " data-zero=\"1\"" : "") x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(max(x1 - x0, 0)))\" height=\"\(f(max(barH - 1, 1)))\" fill=\"\(ser.color)\">"
                s += "<title \(p.attributes)>\(e(categories[i])) · \(e(ser.name)): \(e(p.text))</title></rect>"
                if valueLabels {
                    s += "<text \(p.attributes) x=\"\(f(x1 + 4))\" y=\"\(f(y0 + barH / 2 + 3.5))\" font-size=\"10\" fill=\"#222\">\(e(p.text))</text>"
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
}
