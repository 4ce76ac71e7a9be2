import SubscriptionDomain

/// The app whose PostgreSQL table(s) a sync keeps: one per seed that keeps subscription state in
/// PostgreSQL. Chosen by the profile's name (a what-if copy of `mirrormate` still writes
/// MirrorMate's table, under its own rules fingerprint).
public enum SyncTarget: String, Sendable, CaseIterable {
    /// Seed 000: `subscriptions` (one row per user with a subscription).
    case mirrormate
    /// Seed 001: the subscription columns of `profiles` (one row per user).
    case tomo
    /// Seed 002: `subscriptions` (one row per user with a subscription, keyed by `revenue_cat_id`).
    case howru

    /// The version of the row mapping (SyncTarget+Rows.swift): bump it when a column's meaning
    /// changes, so that tables synced under the old mapping are refused until `--rebuild`.
    /// (2: MirrorMate's `cancelled_at` is also when a cancellation turned auto-renew off.)
    public static let mappingVersion = 2

    public init(profile: Profile) throws {
        guard let t = SyncTarget(rawValue: profile.name) else {
            throw SyncError("profile '\(profile.name)' has no PostgreSQL tables to sync (sync knows \(Self.allCases.map(\.rawValue).joined(separator: ", ")): the seeds that keep subscription state in PostgreSQL)", usage: true)
        }
        self = t
    }

    /// The table the sync writes.
    public var table: String { self == .tomo ? "profiles" : "subscriptions" }

    /// Another target that owns a table of the same name (they cannot share a database).
    var rival: SyncTarget? {
        switch self {
        case .mirrormate: .howru
        case .howru: .mirrormate
        case .tomo: nil
        }
    }

    /// The migrations `--init` applies for this target, in order.
    public var migrations: [SyncMigration] {
        switch self {
        case .mirrormate: [.ledger, .mirrormate]
        case .tomo: [.ledger, .tomo]
        case .howru: [.ledger, .howru]
        }
    }

    /// The SQL type of the key that finds a ledger user's row.
    var keyType: String { self == .howru ? "text" : "uuid" }

    /// The staging table's columns (name and type), in COPY order: the key first.
    var stagedColumns: [(String, String)] {
        switch self {
        case .mirrormate:
            [("user_id", "uuid"), ("transaction_id", "text"), ("product_id", "text"), ("status", "text"),
             ("expires_at", "timestamptz"), ("auto_renew_enabled", "boolean"), ("is_trial", "boolean"),
             ("trial_ends_at", "timestamptz"), ("purchased_at", "timestamptz"), ("cancelled_at", "timestamptz")]
        case .tomo:
            [("id", "uuid"), ("subscription_tier", "text"), ("subscription_expires_at", "timestamptz"), ("revenuecat_customer_id", "text")]
        case .howru:
            [("revenue_cat_id", "text"), ("user_id", "uuid"), ("plan", "text"), ("status", "text"), ("product_id", "text"),
             ("store", "text"), ("original_purchase_date", "timestamp"), ("expiration_date", "timestamp"), ("is_sandbox", "boolean")]
        }
    }
}
