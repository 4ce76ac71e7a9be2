/// The `data` field names of the catalog. Frozen: the raw values are the storage contract.
public enum EventField: String, Sendable, CaseIterable {
    case product, transaction, originalTransaction, expires, offer, price, currency, environment, familyShared
    case reason, graceExpires, resumesAt, effective, to, quantity
    case context, sourceScreen, planState, trialEligible, trialUsed, plan, errorCode, category

    /// The fields, built once; a field's index here is its bit in the decoder's duplicate check.
    static let cases = Array(allCases)
    static let tags = TagTable(cases.map(\.rawValue))
}

/// How a purchase was offered.
public enum Offer: String, Sendable, Hashable, Codable, CaseIterable { case freeTrial = "free_trial", intro, none }
/// The store environment; sandbox events are kept apart from production.
public enum StoreEnvironment: String, Sendable, Hashable, Codable, CaseIterable { case production, sandbox }
/// When a product change takes effect.
public enum ChangeTiming: String, Sendable, Hashable, Codable, CaseIterable { case immediate, nextRenewal = "next_renewal" }
/// Who reported an event.
public enum EventSource: String, Sendable, Hashable, Codable, CaseIterable { case store, client, server }

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
