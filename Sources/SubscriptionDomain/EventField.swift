/// The `data` field names of the catalog. Frozen: the raw values are the storage contract.
public enum EventField: String, Sendable, CaseIterable {
    case product, transaction, originalTransaction, expires, offer, price, currency, environment
    case reason, graceExpires, effective, to, quantity
    case context, sourceScreen, planState, trialEligible, trialUsed, plan, errorCode, category

    /// The field and its index in `allCases` (used as a bit for duplicate checks).
    static func from(_ b: UnsafeRawBufferPointer) -> (field: EventField, index: Int)? {
        table.index(of: b).map { (allCasesArray[$0], $0) }
    }
    private static let allCasesArray = Array(allCases)
    private static let table = TagTable(allCases.map(\.rawValue))
}

/// How a purchase was offered.
public enum Offer: String, Sendable, Hashable, Codable { case freeTrial = "free_trial", intro, none }
/// The store environment; sandbox events are kept apart from production.
public enum StoreEnvironment: String, Sendable, Hashable, Codable { case production, sandbox }
/// When a product change takes effect.
public enum ChangeTiming: String, Sendable, Hashable, Codable { case immediate, nextRenewal = "next_renewal" }
/// Who reported an event.
public enum EventSource: String, Sendable, Hashable, Codable { case store, client, server }
