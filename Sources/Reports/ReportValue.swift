import Foundation
import SubscriptionDomain

/// A number on the page, tied to where it comes from: `key` names a JSON output of the tool and a
/// pointer into it (`revenue-week|/buckets/3/activeSubscriptions`), `value` is that output's value
/// exactly as the JSON writes it, and `text` is how people read it. Every data number of the page
/// is written through this, so a test can compare each one with the tool's JSON.
public struct ReportValue: Sendable {
    public var key: String
    public var value: String
    public var text: String
    /// The number, for drawing.
    public var number: Double

    public static func int(_ key: String, _ n: Int) -> ReportValue {
        ReportValue(key: key, value: String(n), text: HumanFormat.integer(n), number: Double(n))
    }
    public static func rate(_ key: String, _ r: Double) -> ReportValue {
        ReportValue(key: key, value: String(format: "%.4f", r), text: HumanFormat.percent(r), number: r)
    }
    public static func money(_ key: String, _ m: Money, _ currency: String) -> ReportValue {
        ReportValue(key: key, value: m.description, text: HumanFormat.money(m, currency), number: Double(m.micros) / 1_000_000)
    }

    /// The attributes that tie an element to its source.
    var attributes: String { "data-k=\"\(HumanFormat.escaped(key))\" data-v=\"\(HumanFormat.escaped(value))\"" }

    /// An HTML span holding the number.
    var span: String { "<span \(attributes)>\(HumanFormat.escaped(text))</span>" }

    /// A table cell holding the number.
    func cell(style: String = "") -> String {
        "<td class=\"n\"\(style.isEmpty ? "" : " style=\"\(style)\"") \(attributes)>\(HumanFormat.escaped(text))</td>"
    }
}
