/// The `data` field names of the catalog, in the order the canonical encoder writes them.
/// Frozen: the raw values are the storage contract. Which fields each event type holds is
/// `EventType.fields`; a field's JSON form is its `kind`.
public enum EventField: String, Sendable, CaseIterable {
    case product, transaction, originalTransaction, expires, offer, price, currency, environment, familyShared
    case reason, graceExpires, resumesAt, effective, to, quantity
    case context, sourceScreen, planState, trialEligible, trialUsed, plan, errorCode, category

    /// What a field's value is, and how the codec reads and writes it.
    public enum Kind: Sendable {
        /// A non-empty string that is nearly always different (a transaction, a user id).
        case identifier
        /// A non-empty string with few different values (a product id, a category).
        case name
        /// Any string (a reason, a context).
        case text
        /// A string, or an integer kept as its digits.
        case code
        /// An ISO 4217 code: three capital letters.
        case currency
        /// An RFC 3339 time.
        case time
        /// A decimal string (money is never a JSON number).
        case money
        /// A positive integer.
        case quantity
        case bool
        case offer, environment, timing
    }

    /// The field's kind.
    public var kind: Kind {
        switch self {
        case .transaction, .originalTransaction, .to: .identifier
        case .product, .category: .name
        case .reason, .context, .sourceScreen, .planState, .plan: .text
        case .errorCode: .code
        case .currency: .currency
        case .expires, .graceExpires, .resumesAt: .time
        case .price: .money
        case .quantity: .quantity
        case .familyShared, .trialEligible, .trialUsed: .bool
        case .offer: .offer
        case .environment: .environment
        case .effective: .timing
        }
    }

    /// The fields, built once; a field's index here is its bit in field masks (`FieldTable`,
    /// the decoder's duplicate check).
    static let cases = Array(allCases)
    static let tags = TagTable(cases.map(\.rawValue))
    /// The field's bit in a field mask (its position in `allCases`; looked up, so callers keep it).
    public var bit: UInt32 { UInt32(1) << UInt32(Self.cases.firstIndex(of: self)!) }
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
