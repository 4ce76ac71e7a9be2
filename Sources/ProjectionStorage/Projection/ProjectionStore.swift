import Projections
import Foundation
import EventStore
import SubscriptionDomain
import Platform

/// The kept-current projection of one profile: every user's fold of the whole log and the log
/// position it covers, stored together in one file that is replaced atomically, so a crash never
/// leaves data ahead of or behind its checkpoint. A refresh reads only the records after the
/// checkpoint; a projection written by another code version or for another profile, or whose
/// checkpoint is not a head of this log (its chain hash differs there), is rebuilt.
///
/// The file is binary: a magic line, the code version, the profile fingerprint, the position and
/// the log's chain hash at it (which commits to every record up to it: the log's identity),
/// the partitions with their folds (UserFold+Binary.swift), and a CRC32C of all that in the last
/// 4 bytes. It is written and read in chunks of 1 MiB, so neither side holds a second copy.
public struct ProjectionStore {
    /// Bump when the fold or its stored form changes: stored projections of other versions are rebuilt.
    /// 2: binary file (1 was JSON). 3: the log's chain hash at the checkpoint. 4: a catch-up folds
    /// transfer recipients again (one caught up by 3 could hand a received subscription on twice).
    /// 5: a notification entry keeps the times it was scheduled, dropped and switched at.
    /// 6: a subscription keeps whether it is a temporary grant's access (TEMPORARY-GRANT).
    public static let codeVersion = 6
    static let magic = Array("LDGPROJ\n".utf8)

    public let logDirectory: String
    public let profile: Profile
    public var partitions = 1
    /// The time index counts sandbox events too (`--include-sandbox`): a file of its own, kept apart.
    public var timeIndexWithSandbox = false
    /// The share of the log's events, held by the users a change of profile reaches, up to which
    /// the time index under this profile is derived from one kept under another rather than built
    /// (ProjectionStore+TimeIndex.swift): each such user is walked twice, so past about half of
    /// the events a build costs less. Tests set it to derive whatever the share.
    public var derivationShare = 0.5
    /// For tests only: runs right after a refresh opened the log (to append from elsewhere meanwhile).
    @_spi(Testing) public var afterOpeningLog: (() throws -> Void)?
    /// For tests only: the rules fingerprint a build with other rules would compute.
    @_spi(Testing) public var rulesFingerprint: String?

    public init(logDirectory: String, profile: Profile) {
        self.logDirectory = logDirectory
        self.profile = profile
    }

    /// What a refresh did.
    public struct Refresh: Sendable {
        /// Log records read to bring the projection up to date.
        public var recordsRead: Int
        /// Whether it was rebuilt from position 1 (no usable checkpoint).
        public var rebuilt: Bool
        /// The log position the projection now covers.
        public var position: UInt64
    }

    struct Stored {
        var codeVersion: Int
        var fingerprint: String
        var position: UInt64
        /// The log's chain hash at `position`.
        var hash: EventStore.SHA256.Digest
        var users: UserPartitions
    }

    /// Identifies the profile, the rules (what they answer for a fixed corpus: `RulesFingerprint`)
    /// and the code version a stored projection was folded with.
    var fingerprint: String {
        var h = EventStore.SHA256()
        h.update(Array("v\(Self.codeVersion)\n\(profile.encodedJSON())\n\(rulesFingerprint ?? RulesFingerprint.of(profile, keptIn: logDirectory + "/projections"))".utf8))
        return String(h.finalize().description.prefix(16))
    }

    /// The projection file: one per profile content (two profiles named alike, such as a
    /// what-if copy of `handz`, keep separate projections). The name is only a readable label:
    /// characters other than letters, digits, `.`, `_` and `-` become `_`, so no name leaves the folder.
    public var path: String { logDirectory + "/projections/" + Self.fileLabel(profile.name) + "-" + fingerprint + ".projection" }

    /// A profile name made safe as part of one file name: at most 40 characters of `[A-Za-z0-9._-]`, not starting with `.`.
    static func fileLabel(_ name: String) -> String {
        let safe = name.unicodeScalars.prefix(40).map { c -> Character in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "." || c == "_" || c == "-") ? Character(c) : "_"
        }
        let label = String(safe)
        return label.isEmpty || label.hasPrefix(".") ? "_" + label : label
    }

    var foldOptions: ReplayOptions {
        var o = ReplayOptions(profile: profile, asOf: Timestamp(nanoseconds: Int64.max))
        o.partitions = partitions
        return o
    }

    /// The stored projection if it is whole (CRC), of this code version and profile, and its
    /// checkpoint is a head of this log: the log reaches it and has the same chain hash there.
    func load(log: EventLog) -> Stored? {
        guard let stored = try? read(), stored.codeVersion == Self.codeVersion, stored.fingerprint == fingerprint,
              stored.position <= log.head.position, (try? log.chainHash(at: stored.position)) == stored.hash
        else { return nil }
        return stored
    }

    /// Reads the projection file; nil if there is none, `ProjectionReader.Unreadable` if it is not whole.
    func read(chunk: Int = 1 << 20) throws -> Stored? {
        guard let source = try DurableFile.Source(path: path) else { return nil }
        var r = ProjectionReader(source: source, chunk: chunk)
        let header = try r.header(Self.magic, what: "a projection file")
        var tables: [UserTable<UserFold>] = []
        for _ in 0..<(try r.count()) {
            let n = try r.count()
            var table = UserTable<UserFold>(capacity: n)
            for _ in 0..<n {
                let fold = try r.fold()
                table[fold.user] = fold
            }
            tables.append(table)
        }
        try r.checkCRCTrailer(after: "the folds")
        return Stored(codeVersion: header.version, fingerprint: header.fingerprint, position: header.position, hash: header.hash, users: UserPartitions(tables))
    }

    /// Writes the projection file in chunks to a temporary file, then puts it in place atomically.
    func write(_ stored: Stored) throws {
        var file = try ChecksummedReplacement(path: path)
        var w = ProjectionWriter()
        w.header(Self.magic, DerivedFileHeader(version: stored.codeVersion, fingerprint: stored.fingerprint, position: stored.position, hash: stored.hash))
        w.count(stored.users.tables.count)
        for table in stored.users.tables {
            w.count(table.count)
            for i in 0..<table.count {
                w.fold(table[slot: i])
                if w.bytes.count >= 1 << 20 { try file.flush(&w) }
            }
        }
        try file.commit(&w)
    }

    /// Brings the stored projection up to the log's head and saves it; returns the folds and the log handle it read.
    func refreshed() throws -> (users: UserPartitions, refresh: Refresh, log: EventLog) {
        let log = try Self.openForScans(logDirectory)
        try afterOpeningLog?()
        let head = log.head.position
        var users: UserPartitions
        var refresh: Refresh
        if let stored = load(log: log) {
            users = stored.users
            let options = foldOptions
            let decider = PlanDecider(profile: profile)
            var read = 0
            var touched: Set<String> = []
            // Who received a subscription by transfer: their kept fold holds it after their own events.
            var recipients: Set<String> = []
            users.forEachFold { if let to = $0.transferOut?.to { recipients.insert(to) } }
            // The recipients of the touched users' transfers as they were kept.
            var handedTo: Set<String> = []
            try log.forEach(from: stored.position + 1, after: stored.hash) { record in
                read += 1
                let event = try Replay.decode(record)
                if !touched.contains(event.user), let to = users[event.user]?.transferOut?.to { handedTo.insert(to) }
                users.update(event.user) { $0.apply(event, decider, options) }
                touched.insert(event.user)
            }
            try Replay.refoldWithTransfers(
                log: log, users: &users, decider: decider, options: options,
                // Folded again from their own streams, then handed what was transferred to them, as
                // a full replay does: late events, and anyone whose received subscription or whose
                // sender's changed (their new events landed on top of what was handed to them).
                refold: touched.filter { users[$0]!.outOfOrder || recipients.contains($0) }.union(handedTo)
                    .union(touched.compactMap { users[$0]?.transferOut?.to }))
            refresh = Refresh(recordsRead: read, rebuilt: false, position: head)
        } else {
            // Folded through this handle's head, so the checkpoint below names exactly what was folded.
            users = try Replay.run(directory: logDirectory, options: foldOptions, through: head).users
            refresh = Refresh(recordsRead: Int(head), rebuilt: true, position: head)
        }
        // The projection is a cache of the log: if it cannot be saved, the answer stands and the next query folds again.
        // (The head's chain hash is looked up only here: a query with nothing new writes nothing.)
        if refresh.recordsRead > 0 || refresh.rebuilt, let headHash = try? log.chainHash(at: head) {
            try? write(Stored(codeVersion: Self.codeVersion, fingerprint: fingerprint, position: head, hash: headHash, users: users))
        }
        return (users, refresh, log)
    }

    /// Refreshes the stored projection and reports what that cost.
    @discardableResult
    public func refresh() throws -> Refresh { try refreshed().refresh }

    /// The read models as of `instant`: folded from the event cache when it matches the log's
    /// head (every user read once, in effect order, up to the instant), else from the kept
    /// projection (`keptSnapshot(asOf:)`). At a past instant most users have events after it, and
    /// loading the projection then folding them again from the log costs several times the fold
    /// from the cache (docs/BENCHMARKS.md).
    public func snapshot(asOf instant: Timestamp) throws -> LedgerSnapshot {
        let log = try Self.openForScans(logDirectory)
        if Replay.eventCacheReady(log, build: false) {
            var options = ReplayOptions(profile: profile, asOf: instant)
            options.partitions = partitions
            return try Replay.run(log: log, options: options)
        }
        return try keptSnapshot(asOf: instant)
    }

    /// The read models as of `instant`, from the kept projection; users with events after the
    /// instant are folded again from their own stream, up to it.
    public func keptSnapshot(asOf instant: Timestamp) throws -> LedgerSnapshot { try snapshotAndLater(asOf: instant).snapshot }

    /// The snapshot as of `instant`, the users who have events after it, and the log handle read.
    func snapshotAndLater(asOf instant: Timestamp) throws -> (snapshot: LedgerSnapshot, later: [String], log: EventLog) {
        var (users, refresh, log) = try refreshed()
        var options = ReplayOptions(profile: profile, asOf: instant)
        options.partitions = partitions
        var later: [String] = []
        users.forEachFold { if ($0.state.lastEventTime ?? instant) > instant { later.append($0.state.user) } }
        if !later.isEmpty {
            try Replay.refoldWithTransfers(log: log, users: &users, decider: PlanDecider(profile: profile), options: options, refold: Set(later))
        }
        return (LedgerSnapshot(options: options, users: users, headPosition: refresh.position), later, log)
    }

    /// A read handle with the log's index files: opening it reads them and indexes only the records
    /// after what they cover (a handle without indexes reads the whole last segment to find the
    /// head). For a kept file checked against the log's head, and the streams of a few users.
    static func openIndexed(_ directory: String) throws -> EventLog {
        var options = EventLog.Options()
        options.secondaryKeys = Replay.secondaryKeys
        return try EventLog(directory: directory, access: .read, options: options)
    }

    /// A read handle without indexes: refreshes read the records after the checkpoint and refold
    /// users from one scan, so the indexes (a whole-log pass at open) would only cost.
    static func openForScans(_ directory: String, through: UInt64? = nil) throws -> EventLog {
        var options = EventLog.Options()
        options.indexes = false
        options.readThrough = through
        return try EventLog(directory: directory, access: .read, options: options)
    }
}
