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

    /// The range the import door checks a field's value against (`ValueRanges`).
    public enum AcceptedRange: Sendable {
        /// An instant in `ValueRanges.times`.
        case time
        /// An amount in `ValueRanges.prices`.
        case price
        /// A count in `ValueRanges.quantities`.
        case quantity
        /// An id the log can key a record by (`ValueRanges.idBytes`, no control character).
        case id
    }

    /// Everything said about a field besides its name, written once (`spec`): the codec and the
    /// encoder read its kind, the event cache its code, the import door its range.
    public struct Spec: Sendable {
        /// What its value is, and how the codec reads and writes it.
        public let kind: Kind
        /// Its frozen code in stored formats: its bit in the event cache's data mask (at most 30:
        /// bit 31 marks unknown fields). Each field keeps its number forever; a new field takes
        /// the next free one (a test pins them all).
        public let code: UInt8
        /// The range its value must lie in at the door, if one is checked.
        public let range: AcceptedRange?

        @usableFromInline init(_ kind: Kind, code: UInt8, range: AcceptedRange? = nil) {
            (self.kind, self.code, self.range) = (kind, code, range)
        }
    }

    /// The one table of the fields: each one's kind, frozen code and range (inlinable: the
    /// codec reads a field's kind for every value it decodes).
    @inlinable @inline(__always) public var spec: Spec {
        switch self {
        case .product: Spec(.name, code: 0)
        case .transaction: Spec(.identifier, code: 1)
        case .originalTransaction: Spec(.identifier, code: 2)
        case .expires: Spec(.time, code: 3, range: .time)
        case .offer: Spec(.offer, code: 4)
        case .price: Spec(.money, code: 5, range: .price)
        case .currency: Spec(.currency, code: 6)
        case .environment: Spec(.environment, code: 7)
        case .familyShared: Spec(.bool, code: 8)
        case .reason: Spec(.text, code: 9)
        case .graceExpires: Spec(.time, code: 10, range: .time)
        case .resumesAt: Spec(.time, code: 11, range: .time)
        case .effective: Spec(.timing, code: 12)
        case .to: Spec(.identifier, code: 13, range: .id)
        case .quantity: Spec(.quantity, code: 14, range: .quantity)
        case .context: Spec(.text, code: 15)
        case .sourceScreen: Spec(.text, code: 16)
        case .planState: Spec(.text, code: 17)
        case .trialEligible: Spec(.bool, code: 18)
        case .trialUsed: Spec(.bool, code: 19)
        case .plan: Spec(.text, code: 20)
        case .errorCode: Spec(.code, code: 21)
        case .category: Spec(.name, code: 22)
        }
    }

    /// The field's kind (`spec`).
    @inlinable @inline(__always) public var kind: Kind { spec.kind }
    /// The field's frozen code in the event cache (`spec`).
    public var cacheCode: UInt8 { spec.code }
    /// The range the import door checks (`spec`).
    public var range: AcceptedRange? { spec.range }

    /// The fields that have `range`, in the catalog's order.
    static func fields(in range: AcceptedRange) -> [EventField] { cases.filter { $0.range == range } }

    /// The fields, built once; a field's index here is its bit in field masks (`FieldTable`,
    /// the decoder's duplicate check).
    package static let cases = Array(allCases)
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
