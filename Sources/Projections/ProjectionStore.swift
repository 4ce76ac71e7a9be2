import Foundation
import EventStore
import SubscriptionDomain

/// The kept-current projection of one profile: every user's fold of the whole log and the log
/// position it covers, stored together in one file that is replaced atomically, so a crash never
/// leaves data ahead of or behind its checkpoint. A refresh reads only the records after the
/// checkpoint; a projection written by another code version or for another profile is rebuilt.
public struct ProjectionStore {
    /// Bump when the fold or the stored shape changes: stored projections of other versions are rebuilt.
    public static let codeVersion = 1

    public let logDirectory: String
    public let profile: Profile
    public var partitions = 1

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

    struct Stored: Codable {
        var codeVersion: Int
        var fingerprint: String
        var position: UInt64
        var users: UserPartitions
    }

    /// Identifies the profile and code version a stored projection was folded with.
    var fingerprint: String {
        var h = EventStore.SHA256()
        h.update(Array("v\(Self.codeVersion)\n\(profile.encodedJSON())".utf8))
        return String(h.finalize().description.prefix(16))
    }

    /// The projection file: one per profile content (two profiles named alike, such as a
    /// what-if copy of `handz`, keep separate projections).
    public var path: String { logDirectory + "/projections/" + profile.name + "-" + fingerprint + ".json" }

    var foldOptions: ReplayOptions {
        var o = ReplayOptions(profile: profile, asOf: Timestamp(nanoseconds: Int64.max))
        o.partitions = partitions
        return o
    }

    func load(headPosition: UInt64) -> Stored? {
        guard let bytes = try? DurableFile.read(path: path),
              let stored = try? JSONDecoder().decode(Stored.self, from: Data(bytes)),
              stored.codeVersion == Self.codeVersion, stored.fingerprint == fingerprint, stored.position <= headPosition
        else { return nil }
        return stored
    }

    /// Brings the stored projection up to the log's head and saves it; returns the folds.
    func refreshed() throws -> (users: UserPartitions, refresh: Refresh) {
        let log = try EventLog(directory: logDirectory, access: .read)
        let head = log.head.position
        var users: UserPartitions
        var refresh: Refresh
        if let stored = load(headPosition: head) {
            users = stored.users
            let options = foldOptions
            let decider = PlanDecider(profile: profile)
            var read = 0
            var touched: Set<String> = []
            try log.forEach(from: stored.position + 1) { record in
                read += 1
                let event = try Replay.decode(record.payload, position: record.position)
                users.update(event.user) { $0.apply(event, decider, options) }
                touched.insert(event.user)
            }
            for user in touched where users[user]!.outOfOrder {
                users[user] = try Replay.refold(log: log, user: user, decider: decider, options: options)
            }
            Replay.handTransfers(&users, options: options)
            refresh = Refresh(recordsRead: read, rebuilt: false, position: head)
        } else {
            users = try Replay.run(directory: logDirectory, options: foldOptions).users
            refresh = Refresh(recordsRead: Int(head), rebuilt: true, position: head)
        }
        if refresh.recordsRead > 0 || refresh.rebuilt {
            let stored = Stored(codeVersion: Self.codeVersion, fingerprint: fingerprint, position: head, users: users)
            try? DurableFile.replace(path: path, with: [UInt8](try JSONEncoder().encode(stored)))
        }
        return (users, refresh)
    }

    /// Refreshes the stored projection and reports what that cost.
    @discardableResult
    public func refresh() throws -> Refresh { try refreshed().refresh }

    /// The read models as of `instant`, from the kept projection; users with events after the
    /// instant are folded again from their own stream, up to it.
    public func snapshot(asOf instant: Timestamp) throws -> LedgerSnapshot {
        var (users, refresh) = try refreshed()
        var options = ReplayOptions(profile: profile, asOf: instant)
        options.partitions = partitions
        let later = users.folds.filter { ($0.state.lastEventTime ?? instant) > instant }.map(\.state.user)
        if !later.isEmpty {
            let log = try EventLog(directory: logDirectory, access: .read)
            let decider = PlanDecider(profile: profile)
            for user in later {
                let fold = try Replay.refold(log: log, user: user, decider: decider, options: options)
                users[user] = fold.state.lastEventTime == nil ? nil : fold
            }
            Replay.handTransfers(&users, options: options)
        }
        return LedgerSnapshot(options: options, users: users, headPosition: refresh.position)
    }
}
