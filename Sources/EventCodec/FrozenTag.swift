import SubscriptionDomain

/// An enum stored as one of its frozen string tags, matched on raw bytes by the decoder
/// (`EventType` and these value enums).
protocol FrozenTag: RawRepresentable<String>, CaseIterable {
    /// The cases' tags, in the order of `cases`.
    static var tags: TagTable { get }
    /// The cases, built once (`allCases` builds a new array on every call).
    static var cases: [Self] { get }
}
extension Offer: FrozenTag {
    static let cases = Array(allCases)
    static let tags = TagTable(cases.map(\.rawValue))
}
extension StoreEnvironment: FrozenTag {
    static let cases = Array(allCases)
    static let tags = TagTable(cases.map(\.rawValue))
}
extension ChangeTiming: FrozenTag {
    static let cases = Array(allCases)
    static let tags = TagTable(cases.map(\.rawValue))
}
extension EventSource: FrozenTag {
    static let cases = Array(allCases)
    static let tags = TagTable(cases.map(\.rawValue))
}

extension EventType: FrozenTag {
    static let tags = TagTable(cases.map(\.rawValue))
}

extension EventField {
    /// The fields' names, matched on raw bytes by the decoder (in the order of `cases`).
    static let tags = TagTable(cases.map(\.rawValue))
}

extension FieldValue {
    /// Appends the value as canonical JSON (money and codes as strings, times in RFC 3339).
    public func appendJSON(to out: inout [UInt8]) {
        switch self {
        case .string(let v): EventCodec.appendString(v, to: &out)
        case .time(let t): out.append(0x22); t.appendRFC3339(to: &out); out.append(0x22)
        case .money(let m): out.append(0x22); m.appendDecimal(to: &out); out.append(0x22)
        case .int(let q): Money.appendInteger(q, to: &out)
        case .bool(let v): out.append(contentsOf: (v ? "true" : "false").utf8)
        case .offer(let v): EventCodec.appendString(v.rawValue, to: &out)
        case .environment(let v): EventCodec.appendString(v.rawValue, to: &out)
        case .timing(let v): EventCodec.appendString(v.rawValue, to: &out)
        }
    }
}
