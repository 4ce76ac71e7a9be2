import Projections
import SubscriptionDomain

// The event cache's one-byte codes for the catalog's enums (a data field's code is in its
// domain table, `EventField.spec`). Frozen: each value keeps its number
// forever and a new value takes the next free one (a test pins them all). Written as exhaustive
// switches, so a new case cannot be stored until it is given a code, and never by its position in
// `allCases`, which moves when a case is inserted.

extension EventType {
    var cacheCode: UInt8 {
        switch self {
        case .purchase: 0
        case .renewal: 1
        case .cancellation: 2
        case .uncancellation: 3
        case .billingIssue: 4
        case .expiration: 5
        case .refund: 6
        case .refundReversed: 7
        case .productChange: 8
        case .revoke: 9
        case .transfer: 10
        case .consumablePurchase: 11
        case .creditsUsed: 12
        case .accountCreated: 13
        case .accountDeleted: 14
        case .paywallViewed: 15
        case .paywallCtaTapped: 16
        case .purchaseStarted: 17
        case .purchasePending: 18
        case .purchaseSuccess: 19
        case .purchaseFailed: 20
        case .restoreClicked: 21
        case .restoreSuccess: 22
        case .restoreFailed: 23
        case .notificationsDisabled: 24
        case .notificationsEnabled: 25
        case .pause: 26
        }
    }
}

extension EventSource {
    var cacheCode: UInt8 {
        switch self {
        case .store: 0
        case .client: 1
        case .server: 2
        }
    }
}

extension Offer {
    var cacheCode: UInt8 {
        switch self {
        case .freeTrial: 0
        case .intro: 1
        case .none: 2
        }
    }
}

extension StoreEnvironment {
    var cacheCode: UInt8 {
        switch self {
        case .production: 0
        case .sandbox: 1
        }
    }
}

extension ChangeTiming {
    var cacheCode: UInt8 {
        switch self {
        case .immediate: 0
        case .nextRenewal: 1
        }
    }
}

extension EventCache {
    /// Each code's value, for reading: built from the codes above.
    static func byCode<T: CaseIterable>(_ code: (T) -> UInt8) -> [T?] {
        var table = [T?](repeating: nil, count: 256)
        for value in T.allCases { table[Int(code(value))] = value }
        return table
    }

    static let types = byCode { (t: EventType) in t.cacheCode }
    /// The number of type codes (the highest, plus one): a user's types are as many bits.
    static let typeCodeCount = Int(EventType.allCases.map(\.cacheCode).max()!) + 1
    static let sources = byCode { (s: EventSource) in s.cacheCode }
    static let offers = byCode { (o: Offer) in o.cacheCode }
    static let environments = byCode { (e: StoreEnvironment) in e.cacheCode }
    static let timings = byCode { (t: ChangeTiming) in t.cacheCode }
}
