import Foundation
import EventStore
import SubscriptionDomain
import Projections
import ProjectionStorage

/// Keeps one app's PostgreSQL table(s) equal to the ledger's plan states as of an instant
/// (docs/postgres.md). Each run is one database transaction holding the changed rows and the
/// target's `ledger_checkpoint` row (log position, chain hash, instant, rules): a crash at any
/// moment leaves the old rows with the old checkpoint or the new rows with the new one. A run
/// after a checkpoint examines only the users the records appended since name and the users
/// whose plan moved on its own since the checkpoint's instant (an event that took effect, a
/// timer that fired), and writes only the rows that differ.
public struct PostgresSync {
    public var logDirectory: String
    public var profile: Profile
    public var psql: Psql
    /// The instant to sync to.
    public var asOf: Timestamp
    /// `asOf` was asked for (`--at`): an instant before the checkpoint's is refused, not moved up.
    public var asOfGiven = false
    /// Replace the whole table from the log (in the same one transaction).
    public var rebuild = false
    /// Users folded in parallel by the projection.
    public var partitions = 1

    public init(logDirectory: String, profile: Profile, psql: Psql, asOf: Timestamp) {
        self.logDirectory = logDirectory
        self.profile = profile
        self.psql = psql
        // PostgreSQL keeps microseconds: the instant is cut to them, so the checkpoint holds it exactly.
        self.asOf = Timestamp(nanoseconds: asOf.nanoseconds - ((asOf.nanoseconds % 1000) + 1000) % 1000)
    }

    /// What a run did.
    public struct Report: Sendable {
        public var target: SyncTarget
        /// The checkpoint before the run (nil for a first sync).
        public var previous: SyncCheckpoint?
        public var checkpoint: SyncCheckpoint
        /// Every row was recomputed (first sync or `--rebuild`).
        public var full: Bool
        /// Users whose rows were recomputed.
        public var usersExamined: Int
        public var deleted = 0, updated = 0, inserted = 0
        /// Users the table cannot hold, with why.
        public var skipped: [(user: String, reason: String)] = []
        /// Nothing new since the checkpoint: no transaction was run.
        public var upToDate = false
    }

    /// Applies the target's migrations that the database has not had yet, in one transaction;
    /// returns the ids applied.
    public func initialize() throws -> [String] {
        let target = try SyncTarget(profile: profile)
        var script = "SET client_min_messages = warning;\nBEGIN;\n"
        script += "CREATE TABLE IF NOT EXISTS ledger_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT NOW());\n"
        script += "LOCK TABLE ledger_migrations IN EXCLUSIVE MODE;\n"
        if let rival = target.rival {
            script += """
                DO $ledger$BEGIN
                  IF EXISTS (SELECT 1 FROM ledger_migrations WHERE id LIKE \(SQLText.literal(rival.rawValue + "/%"))) THEN
                    RAISE EXCEPTION 'this database holds the % table of %; % needs a database (or schema) of its own', \(SQLText.literal(target.table)), \(SQLText.literal(rival.rawValue)), \(SQLText.literal(target.rawValue));
                  END IF;
                END$ledger$;

                """
        }
        for (i, m) in target.migrations.enumerated() {
            script += "SELECT NOT EXISTS (SELECT 1 FROM ledger_migrations WHERE id = \(SQLText.literal(m.id))) AS apply_\(i) \\gset\n"
            script += "\\if :apply_\(i)\n\(m.sql)\nINSERT INTO ledger_migrations (id) VALUES (\(SQLText.literal(m.id)));\n\\echo applied \(m.id)\n\\endif\n"
        }
        script += "COMMIT;\n"
        let out = try psql.run(script: script)
        return out.stdout.split(separator: "\n").compactMap { $0.hasPrefix("applied ") ? String($0.dropFirst(8)) : nil }
    }

    /// The target's checkpoint in the database, nil if it was never synced.
    public func checkpoint() throws -> SyncCheckpoint? {
        let target = try SyncTarget(profile: profile)
        do {
            return try SyncCheckpoint.parse(try psql.run(script: SyncCheckpoint.query(target)).stdout)
        } catch let e as SyncError where e.message.contains("ledger_checkpoint\" does not exist") {
            throw SyncError("the database has no ledger_checkpoint table: run replay-tool sync --init first (it applies the \(target.rawValue) schema)")
        }
    }

    /// Refuses a log whose subscriptions name a product the profile does not list (a log imported
    /// under another app's profile): its rows would be another app's subscriptions in this app's table.
    static func requireCatalog(_ snapshot: LedgerSnapshot, profile: Profile) throws {
        guard profile.unknownProductEntitlement == nil else { return }
        var foreign: (user: String, product: String)?
        snapshot.forEachSubscriber { s in
            guard foreign == nil else { return }
            for sub in s.subscriptions where profile.product(sub.product) == nil { foreign = (s.user, sub.product); return }
        }
        if let foreign {
            throw SyncError("user '\(foreign.user)' holds product \(foreign.product), which profile \(profile.name) does not list: sync a log under the profile it was imported with")
        }
    }

    /// Brings the table up to the log's head as of `asOf`.
    public func run() throws -> Report {
        let target = try SyncTarget(profile: profile)
        let previous = try checkpoint()
        var asOf = self.asOf
        if let previous, asOf < previous.asOf, !rebuild {
            // Rows as of an earlier instant than the table shows would undo timers that fired.
            if asOfGiven {
                throw SyncError("the \(target.rawValue) table was synced as of \(previous.asOf), after --at \(asOf): rerun with a later --at, or with --rebuild")
            }
            asOf = previous.asOf   // the clock went back: stay at the checkpoint's instant
        }
        var store = ProjectionStore(logDirectory: logDirectory, profile: profile)
        store.partitions = partitions
        let snapshot = try store.snapshot(asOf: asOf)
        try Self.requireCatalog(snapshot, profile: profile)
        let head = snapshot.headPosition
        var logOptions = EventLog.Options()
        logOptions.indexes = false
        logOptions.readThrough = head
        let log = try EventLog(directory: logDirectory, access: .read, options: logOptions)
        guard let headHash = try log.chainHash(at: head) else {
            throw SyncError("the log in \(logDirectory) no longer reaches position \(head)")
        }
        let now = SyncCheckpoint(
            profile: profile.name, profileDigest: Self.digest(profile), rulesFingerprint: RulesFingerprint.of(profile),
            mappingVersion: SyncTarget.mappingVersion, position: head, chainHash: headHash.description, asOf: asOf)
        if let previous, !rebuild { try Self.trust(previous, now: now, log: log, target: target) }

        let decider = PlanDecider(profile: profile)
        var batch = SyncBatch(target: target)
        let incremental = previous != nil && !rebuild
        if let previous, incremental {
            var users = Set(snapshot.usersChanged(after: previous.asOf))
            if previous.position < head {
                try log.forEach(from: previous.position + 1, through: head) { record in
                    let event = try Replay.decode(record.payload, position: record.position)
                    users.insert(event.user)
                    // A transfer changes its recipient too (whose stream does not hold it).
                    if case .transfer(let t) = event.data { users.insert(t.to) }
                }
            }
            if users.isEmpty && previous.position == head {
                return Report(target: target, previous: previous, checkpoint: previous, full: false, usersExamined: 0, upToDate: true)
            }
            for user in users.sorted() {
                batch.add(target.row(snapshot.subscriber(user) ?? SubscriberState(user: user), decider: decider, asOf: asOf), user: user, keyed: true)
            }
        } else {
            snapshot.forEachSubscriber { s in batch.add(target.row(s, decider: decider, asOf: asOf), user: s.user, keyed: false) }
        }
        batch.settleConflicts()

        var report = Report(target: target, previous: previous, checkpoint: now, full: !incremental, usersExamined: batch.examined)
        let output = try psql.run { send in
            try send("SET client_min_messages = warning;\nBEGIN;\nSET LOCAL TIME ZONE 'UTC';\nSET LOCAL standard_conforming_strings = on;\n")
            try send(SyncCheckpoint.guardSQL(target, expected: previous))
            try send(target.stagingSQL(incremental: incremental))
            try batch.send(to: send, incremental: incremental)
            try send(target.applySQL(incremental: incremental))
            try send(now.upsertSQL(target, rowsWritten: ":deleted + :updated + :inserted"))
            try send("COMMIT;\n")
        }
        for line in output.stdout.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if f.count == 3, f[0] == "skipped" { report.skipped.append((f[1], f[2])) }
            let w = line.split(separator: " ")
            if w.count == 4, w[0] == "written" { report.deleted = Int(w[1]) ?? 0; report.updated = Int(w[2]) ?? 0; report.inserted = Int(w[3]) ?? 0 }
        }
        return report
    }

    /// Refuses a table whose checkpoint this log and these rules did not produce.
    static func trust(_ previous: SyncCheckpoint, now: SyncCheckpoint, log: EventLog, target: SyncTarget) throws {
        let atCheckpoint = previous.position <= now.position ? try log.chainHash(at: previous.position)?.description : nil
        guard atCheckpoint == previous.chainHash else {
            throw SyncError("the \(target.rawValue) table was synced from another log (its checkpoint, position \(previous.position) with chain hash \(previous.chainHash.prefix(16))…, is not a head of this one): rerun with --rebuild to replace it from this log")
        }
        var differs: [String] = []
        if previous.rulesFingerprint != now.rulesFingerprint { differs.append("rules fingerprint \(previous.rulesFingerprint), now \(now.rulesFingerprint)") }
        if previous.profileDigest != now.profileDigest { differs.append("profile digest \(previous.profileDigest), now \(now.profileDigest)") }
        if previous.mappingVersion != now.mappingVersion { differs.append("row mapping version \(previous.mappingVersion), now \(now.mappingVersion)") }
        guard differs.isEmpty else {
            throw SyncError("the \(target.rawValue) table was synced under other rules (\(differs.joined(separator: "; "))): rerun with --rebuild to rewrite it under these")
        }
    }

    /// 16 hex digits of the SHA-256 of the profile's JSON.
    static func digest(_ profile: Profile) -> String {
        String(EventStore.SHA256.hash(Array(profile.encodedJSON().utf8)).description.prefix(16))
    }
}
