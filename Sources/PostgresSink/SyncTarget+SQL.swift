/// The statements that bring a target's table to the staged rows, inside the sync's transaction.
/// Staged: `sync_rows` (the rows of the users this sync examined), `sync_keys` (those users'
/// keys, incremental only) and `sync_skipped`. A row is updated only if a column differs, so
/// `updated_at` moves only for rows whose content changed. Each statement's row count is kept
/// in a psql variable (`deleted`, `updated`, `inserted`) and echoed.
extension SyncTarget {
    /// The staging tables.
    func stagingSQL(incremental: Bool) -> String {
        var sql = "CREATE TEMP TABLE sync_rows (" + stagedColumns.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ") ON COMMIT DROP;\n"
        if incremental { sql += "CREATE TEMP TABLE sync_keys (key \(keyType) PRIMARY KEY) ON COMMIT DROP;\n" }
        sql += "CREATE TEMP TABLE sync_skipped (ledger_user text PRIMARY KEY, reason text NOT NULL) ON COMMIT DROP;\n"
        sql += "CREATE TEMP TABLE sync_users (ledger_user text PRIMARY KEY) ON COMMIT DROP;\n"
        return sql
    }

    /// The staged row's match in the table (`t` the table, `r` the staged row).
    private var match: String {
        switch self {
        case .mirrormate: "t.user_id = r.user_id AND t.product_id = r.product_id"
        case .tomo: "t.id = r.id"
        case .howru: "t.revenue_cat_id = r.revenue_cat_id"
        }
    }

    /// The table's key column holding a user's key.
    private var keyColumn: String {
        switch self {
        case .mirrormate: "user_id"
        case .tomo: "id"
        case .howru: "revenue_cat_id"
        }
    }

    /// The columns an update sets from the staged row (the match columns are not among them).
    private var updated: [String] {
        let names = stagedColumns.map(\.0)
        switch self {
        case .mirrormate: return names.filter { $0 != "user_id" && $0 != "product_id" }
        case .tomo, .howru: return Array(names.dropFirst())
        }
    }

    private var updatedAtColumn: String { self == .tomo ? "subscription_updated_at" : "updated_at" }

    /// Deletes (or, for `profiles`, resets) the rows of examined users that the ledger no longer
    /// gives one; a rebuild does it for every row not staged.
    private func deleteSQL(incremental: Bool) -> String {
        let scope = incremental ? " AND t.\(keyColumn) IN (SELECT key FROM sync_keys)" : ""
        if self == .tomo {
            // The app owns its profiles: a user the ledger has no row for is reset to free, not deleted.
            return """
                UPDATE profiles t SET subscription_tier = 'free', subscription_expires_at = NULL, revenuecat_customer_id = NULL,
                    subscription_updated_at = now()
                WHERE NOT EXISTS (SELECT 1 FROM sync_rows r WHERE \(match))\(scope)
                  AND (t.subscription_tier, t.subscription_expires_at, t.revenuecat_customer_id) IS DISTINCT FROM ('free', NULL, NULL);

                """
        }
        return "DELETE FROM \(table) t WHERE NOT EXISTS (SELECT 1 FROM sync_rows r WHERE \(match))\(scope);\n"
    }

    /// The statements after the staged data is in.
    func applySQL(incremental: Bool) -> String {
        var sql = deleteSQL(incremental: incremental) + "\\set deleted :ROW_COUNT\n"
        if self == .mirrormate {
            // An original transaction already held by a row of another user this sync leaves alone:
            // reported and not written, rather than failing the whole sync on the unique constraint.
            sql += """
                INSERT INTO sync_skipped (ledger_user, reason)
                SELECT r.user_id::text, 'original transaction ' || r.transaction_id || ' is already the row of user ' || t.user_id::text
                FROM sync_rows r JOIN subscriptions t ON t.transaction_id = r.transaction_id AND t.user_id <> r.user_id
                ON CONFLICT (ledger_user) DO NOTHING;
                DELETE FROM sync_rows r USING subscriptions t WHERE t.transaction_id = r.transaction_id AND t.user_id <> r.user_id;

                """
        }
        let sets = updated.map { "\($0) = r.\($0)" }.joined(separator: ", ")
        let old = updated.map { "t.\($0)" }.joined(separator: ", ")
        let new = updated.map { "r.\($0)" }.joined(separator: ", ")
        sql += """
            UPDATE \(table) t SET \(sets), \(updatedAtColumn) = now()
            FROM sync_rows r WHERE \(match) AND (\(old)) IS DISTINCT FROM (\(new));
            \\set updated :ROW_COUNT

            """
        let columns = stagedColumns.map(\.0)
        sql += """
            INSERT INTO \(table) (\(columns.joined(separator: ", ")), \(updatedAtColumn))
            SELECT \(columns.map { "r.\($0)" }.joined(separator: ", ")), now() FROM sync_rows r
            WHERE NOT EXISTS (SELECT 1 FROM \(table) t WHERE \(match));
            \\set inserted :ROW_COUNT

            """
        // The users this sync examined have their skip reports replaced by this sync's.
        let skippedScope = incremental ? " AND ledger_user IN (SELECT ledger_user FROM sync_users)" : ""
        sql += """
            DELETE FROM ledger_sync_skipped WHERE target = \(SQLText.literal(rawValue))\(skippedScope);
            INSERT INTO ledger_sync_skipped (target, ledger_user, reason, reported_at)
            SELECT \(SQLText.literal(rawValue)), ledger_user, reason, now() FROM sync_skipped;
            SELECT 'skipped' || chr(9) || translate(ledger_user, chr(9) || chr(10) || chr(13), '   ') || chr(9) || reason
            FROM sync_skipped ORDER BY ledger_user;
            \\echo 'written' :deleted :updated :inserted

            """
        return sql
    }
}
