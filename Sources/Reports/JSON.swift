import Foundation
import SubscriptionDomain
import EventCodec

/// A JSON value with ordered keys, written compactly on one line.
public indirect enum JSON: Sendable {
    case string(String), int(Int), double(Double), bool(Bool), null
    case array([JSON])
    case object([(String, JSON)])

    public static func time(_ t: Timestamp?) -> JSON { t.map { .string($0.description) } ?? .null }
    public static func text(_ s: String?) -> JSON { s.map { .string($0) } ?? .null }

    /// The value as one line of JSON.
    public var rendered: String {
        var out: [UInt8] = []
        render(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value's JSON to `out`.
    public func render(into out: inout [UInt8]) {
        switch self {
        case .string(let s): EventCodec.appendString(s, to: &out)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .double(let d): out.append(contentsOf: String(format: "%.4f", d).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(0x5B)
            for (i, v) in items.enumerated() { if i > 0 { out.append(0x2C) }; v.render(into: &out) }
            out.append(0x5D)
        case .object(let pairs):
            out.append(0x7B)
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out.append(0x2C) }
                EventCodec.appendString(k, to: &out)
                out.append(0x3A)
                v.render(into: &out)
            }
            out.append(0x7D)
        }
    }
}
