import Foundation
import EventStore
import SubscriptionDomain
import Platform
import Projections

extension Replay {
    /// Folds the log in `directory`. With `options.eventCache`, events are read from the event
    /// cache if it matches the log's head (with `buildEventCache`, it is built first if not); a
    /// partition that finds it damaged removes it and folds from the log. Every partition folds the
    /// records up to the head the first handle saw (or `through`), whatever is appended meanwhile.
    public static func run(directory: String, options: ReplayOptions, through: UInt64? = nil) throws -> LedgerSnapshot {
        try run(log: try ProjectionStore.openForScans(directory, through: through), options: options)
    }

    /// The same over `log`, a handle opened for scans (`ProjectionStore.openForScans`), up to its head.
    static func run(log: EventLog, options: ReplayOptions) throws -> LedgerSnapshot {
        let partitions = max(1, options.partitions)
        let directory = log.directory
        let head = log.head
        let cached = options.eventCache && eventCacheReady(log, build: options.buildEventCache)
        let results = PartitionResults(count: partitions)
        DispatchQueue.concurrentPerform(iterations: partitions) { p in
            do {
                if cached {
                    do {
                        results.set(p, .success((try fold(cache: directory, head: head, partition: p, of: partitions, options: options), head.position)))
                        return
                    } catch {
                        try? DurableFile.remove(path: EventCache.path(directory))
                    }
                }
                let log = try ProjectionStore.openForScans(directory, through: head.position)
                let users = try fold(log: log, partition: p, of: partitions, options: options)
                results.set(p, .success((users, log.head.position)))
            } catch {
                results.set(p, .failure(error))
            }
        }
        var tables: [UserTable<UserFold>] = []
        for r in results.takeAll() {
            let (part, h) = try r.get()
            guard h == head.position else {
                throw ProjectionError(position: h, reason: "a partition read the log to position \(h), not to the rebuild's head \(head.position)")
            }
            tables.append(part)
        }
        var users = UserPartitions(tables)
        handTransfers(&users, options: options)
        return LedgerSnapshot(options: options, users: users, headPosition: head.position)
    }
}

/// Results of the parallel partitions, written once each.
final class PartitionResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<(UserTable<UserFold>, UInt64), any Error>?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ r: Result<(UserTable<UserFold>, UInt64), any Error>) { lock.withLock { results[i] = r } }
    /// Hands the results over, dropping this box's references so each partition is freed once merged.
    func takeAll() -> [Result<(UserTable<UserFold>, UInt64), any Error>] {
        lock.withLock {
            defer { results = [] }
            return results.map { $0! }
        }
    }
}
