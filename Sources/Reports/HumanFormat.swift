import Foundation
import SubscriptionDomain

/// Numbers as people read them: thousands separators, percentages with one decimal, money with
/// its currency's sign and its minor unit's decimals (rounded half away from zero).
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

    /// `m` with its currency's sign, rounded to the currency's minor unit (`MinorUnits`) half away
    /// from zero, thousands grouped: `$1,234.50`, `¥1,235`, `CHF 12.00`.
    public static func money(_ m: Money, _ currency: String) -> String {
        let (negative, units, digits) = MinorUnits.minor(m, currency)
        return (negative ? "-" : "") + (symbols[currency] ?? currency + " ") + MinorUnits.decimal(units, digits: digits, group: true)
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
