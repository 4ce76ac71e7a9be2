import Parquet
import SubscriptionDomain
import EventCodec

/// The `users` table's row: a user's `PlanView` as of the instant, the fields `state --format
/// json` prints, named in snake case; `entitlements` is a JSON array and `limits` a JSON object
/// (keys sorted) as text, and `rule` is split into its id and `rule_summary`.
enum UserRows {
    /// Replaces `row` with the cells of `view` as of `asOf`.
    static func cells(_ view: PlanView, asOf: Timestamp, json: inout [UInt8], into row: inout [ParquetValue]) {
        row.removeAll(keepingCapacity: true)
        row.append(.string(view.user))
        row.append(.string(view.planState.rawValue))
        row.append(TableCell.text(view.graceReason?.rawValue))
        row.append(TableCell.time(view.graceEndsAt))
        json.removeAll(keepingCapacity: true)
        json.append(0x5B)
        for (i, e) in view.entitlements.enumerated() {
            if i > 0 { json.append(0x2C) }
            EventCodec.appendString(e, to: &json)
        }
        json.append(0x5D)
        row.append(.string(String(decoding: json, as: UTF8.self)))
        row.append(TableCell.text(view.product))
        row.append(TableCell.time(view.expiresAt))
        row.append(TableCell.bool(view.autoRenew))
        row.append(TableCell.time(view.autoRenewOffAt))
        row.append(.bool(view.trialEligible))
        row.append(.int64(Int64(view.credits)))
        row.append(.bool(view.billingIssue))
        row.append(.int64(Int64(view.badge)))
        row.append(.string(view.tier))
        json.removeAll(keepingCapacity: true)
        json.append(0x7B)
        for (i, (key, limit)) in view.limits.sorted(by: { $0.key < $1.key }).enumerated() {
            if i > 0 { json.append(0x2C) }
            EventCodec.appendString(key, to: &json)
            json.append(0x3A)
            switch limit {
            case .count(let n): json.append(contentsOf: String(n).utf8)
            case .unlimited: json.append(contentsOf: #""unlimited""#.utf8)
            case .enabled(let b): json.append(contentsOf: (b ? "true" : "false").utf8)
            }
        }
        json.append(0x7D)
        row.append(.string(String(decoding: json, as: UTF8.self)))
        row.append(.string(view.rule.id))
        row.append(.string(view.rule.summary))
        row.append(TableCell.time(asOf))
    }
}
