import SubscriptionDomain

/// A target's row in `ledger_checkpoint`: the log position and instant its table reflects, and
/// what it was derived with. The table is trusted only if all of these match the sync's.
public struct SyncCheckpoint: Sendable, Equatable {
    public var profile: String
    public var profileDigest: String
    public var rulesFingerprint: String
    public var mappingVersion: Int
    public var position: UInt64
    /// The log's chain hash at `position` (lower-case hex).
    public var chainHash: String
    public var asOf: Timestamp

    /// The SELECT that prints the checkpoint of `target` as one `|`-separated line (nothing if none).
    static func query(_ target: SyncTarget) -> String {
        """
        SELECT profile, profile_digest, rules_fingerprint, mapping_version, log_position, log_chain_hash,
               to_char(as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
        FROM ledger_checkpoint WHERE target = \(SQLText.literal(target.rawValue));
        """
    }

    /// Parses the line `query` prints; nil for no line.
    static func parse(_ output: String) throws -> SyncCheckpoint? {
        guard let line = output.split(separator: "\n").first(where: { !$0.isEmpty }) else { return nil }
        let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard f.count == 7, let version = Int(f[3]), let position = UInt64(f[4]), let asOf = Timestamp.parse(f[6]) else {
            throw SyncError("ledger_checkpoint holds a row this tool cannot read: \(line)")
        }
        return SyncCheckpoint(profile: f[0], profileDigest: f[1], rulesFingerprint: f[2], mappingVersion: version,
                              position: position, chainHash: f[5], asOf: asOf)
    }

    /// The guard a sync's transaction runs first: it takes the target's lock (a second sync of
    /// the same target waits for the first to commit), then refuses to go on if the checkpoint
    /// is no longer the one this sync read (another sync committed meanwhile), its instant
    /// included: a sync to an earlier instant must never commit over a later one's rows.
    static func guardSQL(_ target: SyncTarget, expected: SyncCheckpoint?) -> String {
        let seen = expected.map { "\($0.position) \($0.chainHash) \($0.rulesFingerprint) \($0.profileDigest)" }
        let expectedSQL = seen.map(SQLText.literal) ?? "NULL"
        let expectedAsOf = expected.map { SQLText.literal($0.asOf.description) + "::timestamptz" } ?? "NULL"
        let row = "FROM ledger_checkpoint WHERE target = \(SQLText.literal(target.rawValue))"
        return """
            DO $ledger$BEGIN
              PERFORM pg_advisory_xact_lock(hashtext(\(SQLText.literal("replay-tool sync " + target.rawValue))));
              IF (SELECT log_position::text || ' ' || log_chain_hash || ' ' || rules_fingerprint || ' ' || profile_digest \(row))
                  IS DISTINCT FROM \(expectedSQL) OR (SELECT as_of \(row)) IS DISTINCT FROM \(expectedAsOf) THEN
                RAISE EXCEPTION 'ledger_checkpoint of \(target.rawValue) changed since this sync read it (another sync committed meanwhile): nothing written, run again';
              END IF;
            END$ledger$;

            """
    }

    /// The upsert that records this checkpoint; `rowsWritten` is SQL (psql variables).
    func upsertSQL(_ target: SyncTarget, rowsWritten: String) -> String {
        let values = [
            SQLText.literal(target.rawValue), SQLText.literal(profile), SQLText.literal(profileDigest), SQLText.literal(rulesFingerprint),
            "\(mappingVersion)", "\(position)", SQLText.literal(chainHash), SQLText.literal(asOf.description), rowsWritten,
        ]
        return """
            INSERT INTO ledger_checkpoint (target, profile, profile_digest, rules_fingerprint, mapping_version, log_position,
                                           log_chain_hash, as_of, rows_written, synced_at)
            VALUES (\(values.joined(separator: ", ")), now())
            ON CONFLICT (target) DO UPDATE SET profile = EXCLUDED.profile, profile_digest = EXCLUDED.profile_digest,
                rules_fingerprint = EXCLUDED.rules_fingerprint, mapping_version = EXCLUDED.mapping_version,
                log_position = EXCLUDED.log_position, log_chain_hash = EXCLUDED.log_chain_hash, as_of = EXCLUDED.as_of,
                rows_written = EXCLUDED.rows_written, synced_at = EXCLUDED.synced_at;

            """
    }
}
