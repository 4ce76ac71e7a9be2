import Projections
import Foundation
import EventStore
import SubscriptionDomain

extension LedgerSnapshot {
    /// The snapshot split by `segment`: per value (`UserSegment`, decided by each user's own events
    /// up to `options.asOf`), a snapshot of that value's users only, in value order. Every report
    /// of the parts (counts, funnel, revenue) adds up to the whole's. The values are read in one
    /// pass over the users of the log in `directory` (through the event cache, built when
    /// missing), up to the position the snapshot folded, `partitions` on the cores.
    public func segmented(by segment: Segment, directory: String, partitions: Int = 1) throws -> [(value: String, snapshot: LedgerSnapshot)] {
        let values = try UserSegment.values(segment, directory: directory, profile: options.profile, asOf: options.asOf,
                                            through: headPosition, partitions: partitions)
        let chooser = UserSegment(segment, profile: options.profile)
        var parts: [String: ContiguousArray<UserFold>] = [:]
        for f in users.folds { parts[values[f.user] ?? chooser.empty, default: []].append(f) }
        return parts.sorted { $0.key < $1.key }.map { value, folds in
            (value, LedgerSnapshot(options: options, users: UserPartitions([UserTable(folds: folds)]), headPosition: headPosition))
        }
    }
}

extension UserSegment {
    /// Every user's value (those with an event at or before `asOf`), read in one pass per
    /// partition over the log's users through `through`.
    static func values(_ segment: Segment, directory: String, profile: Profile, asOf: Timestamp, through: UInt64,
                       partitions: Int) throws -> [String: String] {
        let log = try ProjectionStore.openForScans(directory, through: through)
        let cached = Replay.eventCacheReady(log, build: true)
        let chooser = UserSegment(segment, profile: profile)
        let parts = try PartitionedWalk.run(directory: directory, head: log.head, cached: cached, partitions: max(1, partitions),
                                            start: { [String: String]() },
                                            add: { map, user, events in
                                                guard let first = events.first, first.time <= asOf else { return }
                                                map[user] = chooser.value(events, asOf: asOf)
                                            })
        var all: [String: String] = [:]
        for p in parts { all.merge(p) { a, _ in a } }
        return all
    }
}

extension LedgerSnapshot {
    /// The snapshot of `users` only (those it holds): every report of it is theirs.
    public func restricted(to users: Set<String>) -> LedgerSnapshot {
        let folds = ContiguousArray(self.users.folds.filter { users.contains($0.user) })
        return LedgerSnapshot(options: options, users: UserPartitions([UserTable(folds: folds)]), headPosition: headPosition)
    }
}
