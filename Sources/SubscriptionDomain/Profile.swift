/// One app's catalog and rules: products, groups, entitlements, tiers and their feature limits,
/// prices, trial and grace lengths, notification copy and the store commission.
public struct Profile: Sendable, Codable, Equatable {
    public var name: String
    public var app: String
    public var products: [Product]
    /// Feature limits per tier; the tier named `free` applies when there is no access.
    public var tiers: [Tier]
    /// The subscription group whose trial eligibility `state` reports.
    public var primaryGroup: String
    /// Free-trial length offered to new subscribers; 0 if the app offers none.
    public var trialDays: Int
    /// Pro grace after a billing issue (seed 004 SK-D01: 3 days).
    public var billingGraceDays: Int
    /// Pro grace when a period passed `expires` unverified (seed 004 SK-D04: 24 hours).
    public var unverifiedGraceHours: Int
    /// How long before the trial ends `trial_ending` fires (seed 004 CH27 L143: 48 hours).
    public var trialReminderLeadHours: Int
    /// The store's commission in percent (15 for the Small Business Program, 30 above it).
    public var commissionPercent: Int
    /// Whether Family Sharing is supported (seed 004 SK-D05: not in V1 for Handz; seed 003: on for
    /// SportsTime). When false, an event marked `familyShared` is rejected at import.
    public var familySharing: Bool
    /// What a product the catalog does not list gives: nil (the default, also for profile files
    /// written before this field) rejects its purchases, renewals, product changes and credit packs
    /// at import; an entitlement accepts them, giving that entitlement and the tier of the catalog's
    /// products that grant it.
    public var unknownProductEntitlement: String? = nil
    /// The app's bundle id (`com.example.app`); when set, a verified App Store notification for
    /// another bundle is rejected at import.
    public var bundleId: String? = nil
    /// The app's Apple id (App Store Connect); when set, a verified production notification for
    /// another app is rejected at import (sandbox notifications carry none).
    public var appAppleId: Int64? = nil
    /// The scheme of paywall deep links, as in `handz://paywall?context=trialEnding`.
    public var deepLinkScheme: String
    public var trialEndingCopy: String
    public var paymentFailedCopy: String

    /// A product of the catalog.
    public struct Product: Sendable, Codable, Equatable {
        public var id: String
        /// `auto_renewable` or `consumable`.
        public var kind: Kind
        public var group: String?
        public var entitlement: String?
        public var tier: String?
        /// Decimal string, as in the store.
        public var price: String
        public var currency: String
        /// Billing period in months for subscriptions (1 monthly, 12 yearly).
        public var periodMonths: Int?
        /// Credits granted by a consumable.
        public var credits: Int?

        public enum Kind: String, Sendable, Codable { case autoRenewable = "auto_renewable", consumable }
    }

    /// A tier's feature limits.
    public struct Tier: Sendable, Codable, Equatable {
        public var name: String
        public var limits: [String: FeatureLimit]
    }

    /// The product with this id.
    public func product(_ id: String) -> Product? { products.first { $0.id == id } }

    /// The tier with this name.
    public func tier(_ name: String) -> Tier? { tiers.first { $0.name == name } }

    /// The subscription group of a product (the product id itself when the profile does not know it).
    public func group(of productID: String) -> String { product(productID)?.group ?? productID }

    public var billingGrace: Timestamp.Duration { .days(billingGraceDays) }
    public var unverifiedGrace: Timestamp.Duration { .hours(unverifiedGraceHours) }
    public var trialReminderLead: Timestamp.Duration { .hours(trialReminderLeadHours) }
}

/// A feature limit: a count, unlimited, or a switch.
public enum FeatureLimit: Sendable, Equatable, Codable, CustomStringConvertible {
    case count(Int)
    case unlimited
    case enabled(Bool)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .enabled(b); return }
        if let n = try? c.decode(Int.self) { self = .count(n); return }
        if let s = try? c.decode(String.self), s == "unlimited" { self = .unlimited; return }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected an integer, true/false or \"unlimited\"")
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .count(let n): try c.encode(n)
        case .unlimited: try c.encode("unlimited")
        case .enabled(let b): try c.encode(b)
        }
    }

    public var description: String {
        switch self {
        case .count(let n): String(n)
        case .unlimited: "unlimited"
        case .enabled(let b): b ? "yes" : "no"
        }
    }
}
