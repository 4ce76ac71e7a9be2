/// One event of the catalog, as written in a JSON line (CONTRACT.md §1).
public struct Event: Sendable, Equatable {
    /// The idempotency key.
    public var id: String
    public var type: EventType
    /// The app user id: the log's stream key.
    public var user: String
    /// When it happened.
    public var time: Timestamp
    public var source: EventSource?
    public var data: EventData

    public init(id: String, type: EventType, user: String, time: Timestamp, source: EventSource? = nil, data: EventData = EventData()) {
        self.id = id
        self.type = type
        self.user = user
        self.time = time
        self.source = source
        self.data = data
    }
}

/// The `data` object: the catalog's fields (which ones are required depends on the type) and
/// any unknown fields, kept verbatim as raw JSON in their original order.
public struct EventData: Sendable, Equatable {
    public var product: String?
    public var transaction: String?
    public var originalTransaction: String?
    public var expires: Timestamp?
    public var offer: Offer?
    public var price: Money?
    public var currency: String?
    public var environment: StoreEnvironment?
    /// A family member's access through Family Sharing (`purchase`, `renewal`): entitlement yes,
    /// revenue and subscription start no. Absent means false.
    public var familyShared: Bool?
    public var reason: String?
    public var graceExpires: Timestamp?
    /// When a paused subscription is due to resume (`pause`); the rules wait for the renewal that resumes it.
    public var resumesAt: Timestamp?
    public var effective: ChangeTiming?
    public var to: String?
    public var quantity: Int?
    public var context: String?
    public var sourceScreen: String?
    public var planState: String?
    public var trialEligible: Bool?
    public var trialUsed: Bool?
    public var plan: String?
    public var errorCode: String?
    public var category: String?
    /// Unknown fields: name and raw JSON value, written back unchanged.
    public var extra: [ExtraField] = []

    public init() {}

    /// An unknown `data` field kept verbatim.
    public struct ExtraField: Sendable, Equatable {
        public var name: String
        public var rawJSON: String
        public init(name: String, rawJSON: String) { self.name = name; self.rawJSON = rawJSON }
    }
}

extension EventData {
    /// A RevenueCat `TEMPORARY_ENTITLEMENT_GRANT` (`"temporaryGrant": true` in a purchase's data):
    /// access while the store confirms the purchase, which follows as its own `purchase`.
    public var isTemporaryGrant: Bool {
        extra.contains { $0.name == "temporaryGrant" && $0.rawJSON == "true" }
    }
}

extension EventData {
    /// The share of the price the developer keeps after the store's fee, in parts per million, when
    /// the store says it (RevenueCat `takehome_percentage`, kept as `"takehomePercentage": 0.85`):
    /// revenue prefers it to the profile's commission. Nil when absent or not within 0…1.
    public var takehomeShare: Int64? {
        guard let raw = extra.first(where: { $0.name == "takehomePercentage" })?.rawJSON, let v = Double(raw), v >= 0, v <= 1 else { return nil }
        return Int64((v * 1_000_000).rounded())
    }
}
