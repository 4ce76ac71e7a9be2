/// The SQL migrations `replay-tool sync --init` applies, in order, each once (recorded in
/// `ledger_migrations`). The seeds' schemas, written for a plain PostgreSQL: Supabase's
/// `auth.users` (and HowRU's `users`) are not there, so the foreign keys to them are left out
/// (docs/postgres.md, "Users without auth.users"); everything else is the seed's text.
/// A migration is never edited once shipped: a change is a new migration.
public struct SyncMigration: Sendable {
    /// `target/NNNN_name`: the key recorded in `ledger_migrations`.
    public var id: String
    public var sql: String
}

extension SyncMigration {
    /// The ledger's own tables, in every database it syncs: where each target's sync stands, and
    /// the users it could not write.
    static let ledger = SyncMigration(id: "ledger/0001_checkpoint", sql: """
        -- One row per synced target (mirrormate, tomo, howru): the log position its tables reflect,
        -- committed in the same transaction as the rows.
        CREATE TABLE IF NOT EXISTS ledger_checkpoint (
            target            TEXT PRIMARY KEY,
            profile           TEXT NOT NULL,
            profile_digest    TEXT NOT NULL,        -- SHA-256 of the profile's JSON (16 hex digits)
            rules_fingerprint TEXT NOT NULL,        -- RulesFingerprint of the profile
            mapping_version   INTEGER NOT NULL,     -- the row mapping's version (PostgresSink)
            log_position      BIGINT NOT NULL,      -- the last log position folded
            log_chain_hash    TEXT NOT NULL,        -- the log's chain hash there: the log's identity
            as_of             TIMESTAMPTZ NOT NULL, -- the instant the rows were evaluated at
            rows_written      BIGINT NOT NULL,      -- rows inserted, updated or deleted by that sync
            synced_at         TIMESTAMPTZ NOT NULL DEFAULT NOW()
        );

        -- Ledger users a target's table cannot hold (a user id that is not a UUID for a uuid
        -- column, a transaction another user's row already holds): reported, not dropped.
        CREATE TABLE IF NOT EXISTS ledger_sync_skipped (
            target      TEXT NOT NULL,
            ledger_user TEXT NOT NULL,
            reason      TEXT NOT NULL,
            reported_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (target, ledger_user)
        );
        """)

    /// Seed 000 ("New Schema Needed"), without the foreign key to `auth.users` and without the
    /// row-level-security policy (it calls Supabase's `auth.uid()`); the two functions verbatim.
    static let mirrormate = SyncMigration(id: "mirrormate/0001_subscriptions", sql: """
        CREATE TABLE IF NOT EXISTS subscriptions (
            id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
            -- Seed: REFERENCES auth.users(id) ON DELETE CASCADE (Supabase). Plain PostgreSQL has no
            -- auth.users: user_id is the app user id as the ledger knows it, with no foreign key.
            user_id UUID NOT NULL,

            -- StoreKit fields
            transaction_id TEXT UNIQUE NOT NULL,  -- Original transaction ID from StoreKit
            product_id TEXT NOT NULL,             -- com.mirrormate.premium.monthly

            -- Status fields
            status TEXT NOT NULL,                 -- 'active', 'expired', 'cancelled', 'grace_period'
            expires_at TIMESTAMPTZ NOT NULL,      -- When subscription ends
            auto_renew_enabled BOOLEAN DEFAULT true,

            -- Trial fields
            is_trial BOOLEAN DEFAULT false,
            trial_ends_at TIMESTAMPTZ,

            -- Metadata
            purchased_at TIMESTAMPTZ NOT NULL,
            cancelled_at TIMESTAMPTZ,
            created_at TIMESTAMPTZ DEFAULT NOW(),
            updated_at TIMESTAMPTZ DEFAULT NOW(),

            -- Indexes
            UNIQUE(user_id, product_id)
        );

        -- Index for fast premium status checks
        CREATE INDEX IF NOT EXISTS idx_subscriptions_user_status ON subscriptions(user_id, status, expires_at);
        CREATE INDEX IF NOT EXISTS idx_subscriptions_expires ON subscriptions(expires_at) WHERE status = 'active';

        -- Function to check premium status
        CREATE OR REPLACE FUNCTION is_user_premium(check_user_id UUID)
        RETURNS BOOLEAN AS $$
        BEGIN
            RETURN EXISTS (
                SELECT 1 FROM subscriptions
                WHERE user_id = check_user_id
                AND status = 'active'
                AND expires_at > NOW()
            );
        END;
        $$ LANGUAGE plpgsql SECURITY DEFINER;

        -- Function to get subscription details
        CREATE OR REPLACE FUNCTION get_user_subscription(check_user_id UUID)
        RETURNS TABLE (
            is_premium BOOLEAN,
            status TEXT,
            expires_at TIMESTAMPTZ,
            is_trial BOOLEAN,
            days_remaining INTEGER
        ) AS $$
        BEGIN
            RETURN QUERY
            SELECT
                (s.status = 'active' AND s.expires_at > NOW()) as is_premium,
                s.status,
                s.expires_at,
                s.is_trial,
                GREATEST(0, EXTRACT(DAY FROM s.expires_at - NOW())::INTEGER) as days_remaining
            FROM subscriptions s
            WHERE s.user_id = check_user_id
            ORDER BY s.expires_at DESC
            LIMIT 1;
        END;
        $$ LANGUAGE plpgsql SECURITY DEFINER;
        """)

    /// Seed 001 ("Key Implementation Details"): the subscription columns of `profiles`. The app
    /// owns `profiles` (Supabase creates a row per signed-up user), so the table is created only
    /// if missing and the columns are added to it; `subscription_updated_at` is the ledger's.
    static let tomo = SyncMigration(id: "tomo/0001_profiles_subscription", sql: """
        -- Seed: profiles.id REFERENCES auth.users(id) on Supabase; plain PostgreSQL has no auth.users.
        CREATE TABLE IF NOT EXISTS profiles (
            id UUID PRIMARY KEY
        );
        ALTER TABLE profiles ADD COLUMN IF NOT EXISTS subscription_tier TEXT NOT NULL DEFAULT 'free'
            CHECK (subscription_tier IN ('free', 'pro'));
        ALTER TABLE profiles ADD COLUMN IF NOT EXISTS subscription_expires_at TIMESTAMPTZ;
        ALTER TABLE profiles ADD COLUMN IF NOT EXISTS revenuecat_customer_id TEXT;
        -- The ledger's addition: when the sync last changed this profile's subscription columns.
        ALTER TABLE profiles ADD COLUMN IF NOT EXISTS subscription_updated_at TIMESTAMPTZ;
        """)

    /// Seed 002 ("Database Schema"), without the foreign key to the app's `users`; one index
    /// added: a row per RevenueCat app user id (`revenue_cat_id`), the key the sync writes by.
    static let howru = SyncMigration(id: "howru/0001_subscriptions", sql: """
        CREATE TABLE IF NOT EXISTS subscriptions (
            id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
            -- Seed: REFERENCES users(id) ON DELETE CASCADE; no users table here. NULL when the
            -- ledger's user id is not a UUID (the row is then found by revenue_cat_id).
            user_id UUID,
            plan VARCHAR(50) NOT NULL,  -- 'free', 'premium', 'family'
            status VARCHAR(20) NOT NULL DEFAULT 'active',
            product_id VARCHAR(100),
            store VARCHAR(20),  -- 'app_store', 'play_store'
            original_purchase_date TIMESTAMP,
            expiration_date TIMESTAMP,
            is_sandbox BOOLEAN DEFAULT false,
            revenue_cat_id VARCHAR(255),
            created_at TIMESTAMP DEFAULT NOW(),
            updated_at TIMESTAMP DEFAULT NOW()
        );

        CREATE INDEX IF NOT EXISTS idx_subscriptions_user ON subscriptions(user_id);
        CREATE INDEX IF NOT EXISTS idx_subscriptions_status ON subscriptions(status);
        -- The ledger's addition: one row per RevenueCat app user id (the ledger's user id).
        CREATE UNIQUE INDEX IF NOT EXISTS subscriptions_revenue_cat_id_key ON subscriptions(revenue_cat_id);
        """)
}
