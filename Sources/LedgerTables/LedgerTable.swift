import Parquet

/// The tables `export --table` writes for analysts' tools, with their columns (CONTRACT.md §5.2).
/// Column names and order are the interface: a query written against them keeps working.
public enum LedgerTable: String, Sendable, CaseIterable {
    /// One row per log record.
    case events
    /// One row per subscription period (a purchase, renewal or charged upgrade transaction) as known at the instant.
    case subscriptions
    /// One row per user: the fields of `state --format json` as of the instant.
    case users

    /// The columns, in order. Low-cardinality strings (types, products, currencies, tiers, rules)
    /// are dictionary-encoded; times are `TIMESTAMP(MICROS, UTC)`, money `DECIMAL(18,6)`.
    public var columns: [ParquetColumn] {
        let time = ParquetColumnType.timestampMicros, money = ParquetColumnType.decimal18x6
        switch self {
        case .events:
            return [
                ParquetColumn("position", .int64), ParquetColumn("id", .string), ParquetColumn("type", .string, dictionary: true),
                ParquetColumn("user", .string), ParquetColumn("time", time), ParquetColumn("recorded", time),
                ParquetColumn("version", .int64), ParquetColumn("product", .string, nullable: true, dictionary: true),
                ParquetColumn("transaction", .string, nullable: true), ParquetColumn("price", money, nullable: true),
                ParquetColumn("currency", .string, nullable: true, dictionary: true), ParquetColumn("data", .string),
            ]
        case .subscriptions:
            return [
                ParquetColumn("user", .string), ParquetColumn("product", .string, dictionary: true),
                ParquetColumn("tier", .string, nullable: true, dictionary: true), ParquetColumn("transaction", .string),
                ParquetColumn("original_transaction", .string), ParquetColumn("start", time), ParquetColumn("expires", time),
                ParquetColumn("effective_end", time, nullable: true), ParquetColumn("is_trial", .boolean),
                ParquetColumn("offer", .string, nullable: true, dictionary: true), ParquetColumn("price", money, nullable: true),
                ParquetColumn("currency", .string, nullable: true, dictionary: true), ParquetColumn("refunded_at", time, nullable: true),
                ParquetColumn("family_shared", .boolean), ParquetColumn("sandbox", .boolean),
                ParquetColumn("renewal_number", .int64, nullable: true), ParquetColumn("temporary_grant", .boolean),
            ]
        case .users:
            return [
                ParquetColumn("user", .string), ParquetColumn("plan_state", .string, dictionary: true),
                ParquetColumn("grace_reason", .string, nullable: true, dictionary: true), ParquetColumn("grace_ends_at", time, nullable: true),
                ParquetColumn("entitlements", .string, dictionary: true), ParquetColumn("product", .string, nullable: true, dictionary: true),
                ParquetColumn("expires_at", time, nullable: true), ParquetColumn("auto_renew", .boolean, nullable: true),
                ParquetColumn("auto_renew_off_at", time, nullable: true), ParquetColumn("trial_eligible", .boolean),
                ParquetColumn("credits", .int64), ParquetColumn("billing_issue", .boolean), ParquetColumn("badge", .int64),
                ParquetColumn("tier", .string, dictionary: true), ParquetColumn("limits", .string, dictionary: true),
                ParquetColumn("rule", .string, dictionary: true), ParquetColumn("rule_summary", .string, dictionary: true),
                ParquetColumn("as_of", time),
            ]
        }
    }

    /// The Parquet schema of the columns.
    public var schema: ParquetSchema {
        get throws(ParquetError) { try ParquetSchema(columns) }
    }

    /// The key-value metadata naming the log's head the table was read up to.
    public static func headMetadata(position: UInt64, hash: String) -> [ParquetKeyValue] {
        [ParquetKeyValue("ledger.head.position", String(position)), ParquetKeyValue("ledger.head.hash", hash)]
    }
}
