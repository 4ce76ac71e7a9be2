import Foundation
import SubscriptionDomain

/// Numbers as people read them: thousands separators, percentages with one decimal, money with
/// its currency's sign and two decimals (rounded half away from zero).
public enum HumanFormat {
    public static func integer(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    public static func percent(_ rate: Double) -> String { String(format: "%.1f%%", rate * 100) }

    static let symbols = ["USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"]

    public static func money(_ m: Money, _ currency: String) -> String {
        // Cents, rounded half away from zero.
        let cents = (m.micros.magnitude + 5_000) / 10_000
        let whole = integer(Int(cents / 100)), frac = cents % 100
        let sign = m.micros < 0 && cents > 0 ? "-" : ""
        return sign + (symbols[currency] ?? currency + " ") + whole + "." + (frac < 10 ? "0" : "") + String(frac)
    }

    /// A short axis label for a money amount or a count: 1.2k, 3.4M.
    public static func compact(_ v: Double) -> String {
        let a = abs(v)
        if a >= 1_000_000 { return trim(String(format: "%.1f", v / 1_000_000)) + "M" }
        if a >= 10_000 { return trim(String(format: "%.1f", v / 1_000)) + "k" }
        if a == a.rounded() { return integer(Int(v)) }
        return String(format: "%.2f", v)
    }

    private static func trim(_ s: String) -> String { s.hasSuffix(".0") ? String(s.dropLast(2)) : s }

    /// Text made safe inside HTML or SVG (elements and quoted attributes).
    public static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
