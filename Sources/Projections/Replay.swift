import Foundation
import EventStore
import SubscriptionDomain
import Platform

/// Full rebuild of every read model from the log: one pass per partition (users split by a hash
/// of their id, folded in parallel), then users whose events arrived out of time order are folded
/// again from their own stream in effect order, then transfers are handed to their recipients.
public enum Replay {
    /// Folds the log in `directory`. With `options.eventCache`, events are read from the event
    /// cache if it matches the log's head (with `buildEventCache`, it is built first if not); a
    /// partition that finds it damaged removes it and folds from the log. Every partition folds the
    /// records up to the head the first handle saw (or `through`), whatever is appended meanwhile.
    public static func run(directory: String, options: ReplayOptions, through: UInt64? = nil) throws -> LedgerSnapshot {
        let partitions = max(1, options.partitions)
        let log = try ProjectionStore.openForScans(directory, through: through)
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

    /// FNV-1a of the user id: which partition folds this user.
    static func partition(of stream: UnsafeRawBufferPointer, count: Int) -> Int {
        guard count > 1 else { return 0 }
        return partition(ofHash: FNV1a.hash(stream), count: count)
    }

    /// The partition of a user id whose FNV-1a hash is `fnv`.
    @inline(__always) static func partition(ofHash fnv: UInt64, count: Int) -> Int { Int(fnv % UInt64(count)) }

    static func fold(log: EventLog, partition p: Int, of count: Int, options: ReplayOptions) throws -> UserTable<UserFold> {
        let decider = PlanDecider(profile: options.profile)
        var users = UserTable<UserFold>(capacity: Int(log.head.position) / 5 / count)
        var decoder = EventCodec.LineDecoder()
        try log.forEach { record in
            // One hash of the stream serves the partition test and the user lookup.
            let fnv = FNV1a.hash(record.stream)
            guard partition(ofHash: fnv, count: count) == p else { return }
            let event = try decode(record, using: &decoder)
            guard event.time <= options.asOf else { return }
            users[slot: users.slot(adding: record.stream, fnv: fnv)].apply(event, decider, options)
        }
        // Users whose events arrived out of time order: gather their events in a second pass and fold again in effect order.
        try refold(log: log, users: users.outOfOrderUsers(), decider: decider, options: options) { users[$0] = $1 }
        return users
    }

    /// The event in a record's payload; a payload that is not one is named by its log position.
    public static func decode(_ payload: UnsafeRawBufferPointer, position: UInt64) throws -> Event {
        var decoder = EventCodec.LineDecoder()
        return try decode(payload, position: position, using: &decoder)
    }

    /// The same through `decoder`, for loops over many records.
    static func decode(_ payload: UnsafeRawBufferPointer, position: UInt64, using decoder: inout EventCodec.LineDecoder) throws -> Event {
        do { return try decoder.decode(payload) } catch {
            throw ProjectionError(position: position, reason: "not a valid event: \(error)")
        }
    }

    /// The event in a record folded by user: its `user` must be the record's stream, and its `id`
    /// the record's id (which the log keeps unique, so no user's events repeat an id).
    static func decode(_ record: RecordView) throws -> Event {
        var decoder = EventCodec.LineDecoder()
        return try decode(record, using: &decoder)
    }

    /// The same through `decoder`, for loops over many records.
    static func decode(_ record: RecordView, using decoder: inout EventCodec.LineDecoder) throws -> Event {
        let event = try decode(record.payload, position: record.position, using: &decoder)
        guard UserIndex.isID(event.user, record.stream) else {
            throw ProjectionError(position: record.position, reason: "the event's user '\(event.user)' is not the record's stream '\(record.streamString)'")
        }
        guard UserIndex.isID(event.id, record.id) else {
            throw ProjectionError(position: record.position, reason: "the event's id '\(event.id)' is not the record's id '\(record.idString)'")
        }
        return event
    }

    /// Folds one user's timeline in effect order, up to `options.asOf`.
    static func refold(_ timeline: UserTimeline, user: String, decider: PlanDecider, options: ReplayOptions) -> UserFold {
        var fold = UserFold(user: user)
        for entry in timeline.entries where entry.stored.event.time <= options.asOf {
            fold.apply(entry.stored.event, decider, options)
        }
        fold.outOfOrder = false
        return fold
    }

    /// Folds these users again from their streams, in effect order, gathered in one pass over the
    /// log; hands each fold to `put` as it is made. (Their events are freed together at the end:
    /// freeing each user's as it is folded left the heap too fragmented for the read models, and
    /// raised a rebuild's peak by 64 MiB.)
    static func refold(log: EventLog, users: Set<String>, decider: PlanDecider, options: ReplayOptions,
                       into put: (String, UserFold) -> Void) throws {
        guard !users.isEmpty else { return }
        refold(streams: try read(log, streams: users, transfersTo: nil).streams, users: users, decider: decider, options: options, into: put)
    }

    /// Folds these users again from their gathered events, handing each fold to `put`.
    static func refold(streams: [String: [StoredEvent]], users: Set<String>, decider: PlanDecider, options: ReplayOptions,
                       into put: (String, UserFold) -> Void) {
        for user in users {
            put(user, refold(UserTimeline(streams[user] ?? []), user: user, decider: decider, options: options))
        }
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
