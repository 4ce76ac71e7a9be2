import Projections
import Foundation
import EventStore
import Platform
import SubscriptionDomain
import Synchronization

/// One walk per partition of the users, on the cores: each from the event cache when it is ready
/// (a cache that fails to read is removed and every partition is read from the log instead), else
/// from the log through `head`. What the time index and the analysts' model build on.
enum PartitionedWalk {
    /// The partitions' results in partition order; the first failure is thrown. From the cache,
    /// every partition or none: should one fail to read it (damage), all are walked again from the
    /// log, so that no user is walked twice or missed where the cache's walks shared the users out
    /// otherwise than the log's partitions do (`run(…shared:…)`).
    static func run<Walk>(directory: String, head: LogHead, cached: Bool, partitions: Int,
                          cache: (_ partition: Int) throws -> Walk,
                          log: (_ log: EventLog, _ partition: Int) throws -> Walk) throws -> [Walk] {
        if cached {
            let fromCache = onCores(partitions, cache)
            if !fromCache.contains(where: { if case .failure = $0 { true } else { false } }) { return try fromCache.map { try $0.get() } }
            try? DurableFile.remove(path: EventCache.path(directory))
        }
        return try onCores(partitions) { p in try log(try ProjectionStore.openForScans(directory, through: head.position), p) }
            .map { try $0.get() }
    }

    /// `body` of each partition, on the cores, and their results in partition order.
    private static func onCores<Walk>(_ partitions: Int, _ body: (_ partition: Int) throws -> Walk) -> [Result<Walk, any Error>] {
        let results = Results<Walk>(count: partitions)
        withoutActuallyEscaping(body) { body in
            let work = UncheckedWork(body: body)
            DispatchQueue.concurrentPerform(iterations: partitions) { p in results.set(p, Result { try work.body(p) }) }
        }
        return results.takeAll()
    }

    /// One walk per partition made of one step per user: `start` makes a partition's walk, `add`
    /// takes in a user (id order) with their events in effect order, from the cache or the log.
    /// From the cache, only users with an event of one of `types` (`EventCache.typeBits`; default:
    /// any) are read, and their events come without ids (`users(inCache:…)`); from the log, every user is.
    /// With `shared`, a walk from the cache takes runs of users as it comes to them (`UserClaims`)
    /// rather than a partition's by id: for walks whose results are summed whichever walk had which
    /// user, so that one core slowed down (by another process) leaves the other no idle wait at the end.
    static func run<Walk>(directory: String, head: LogHead, cached: Bool, partitions: Int, types: UInt64 = .max, shared: Bool = false,
                          start: () -> Walk, add: (inout Walk, _ user: String, _ events: [Event]) -> Void) throws -> [Walk] {
        let claims = UserClaims()
        return try run(directory: directory, head: head, cached: cached, partitions: partitions,
                cache: { p in
                    var walk = start()
                    if shared {
                        var claim = 0..<0, ordinal = -1
                        try users(inCache: directory, head: head, types: types, taking: { _ in
                            ordinal += 1
                            if ordinal >= claim.upperBound { claim = claims.next() }
                            return claim.contains(ordinal)
                        }, { add(&walk, $0, $1) })
                    } else {
                        try users(inCache: directory, head: head, partition: p, of: partitions, types: types) { add(&walk, $0, $1) }
                    }
                    return walk
                },
                log: { log, p in
                    var walk = start()
                    try users(in: log, partition: p, of: partitions) { add(&walk, $0, $1) }
                    return walk
                })
    }

    /// Every user of partition `p` of `count` in the event cache with an event of one of `types`,
    /// in id order, with their events in effect order (the cache's order), without their ids
    /// (empty: no walk reads an event's id; the log's checks of them were made when the cache was).
    static func users(inCache directory: String, head: LogHead, partition p: Int, of count: Int, types: UInt64 = .max,
                      _ body: (_ user: String, _ events: [Event]) -> Void) throws {
        try users(inCache: directory, head: head, types: types, taking: { Replay.partition(of: $0, count: count) == p }, body)
    }

    /// The same for the users whose ids `take` holds for (given each user's id bytes once, in the cache's order).
    static func users(inCache directory: String, head: LogHead, types: UInt64 = .max, taking take: (UnsafeRawBufferPointer) -> Bool,
                      _ body: (_ user: String, _ events: [Event]) -> Void) throws {
        guard var cache = EventCache.reader(directory, head: head) else {
            throw ProjectionReader.Unreadable(offset: 0, reason: "the event cache is gone or no longer matches the log")
        }
        cache.readsIDs = false
        // Each event is read in place into its slot of the list, the slots of the user before
        // reused (one is added only past them): an event read aside and appended was a copy of
        // the whole event, and one more to let go, per event. The slots past a user's last event
        // are moved aside (`spare`) for the next users, not let go and copied anew from a blank.
        var events: [Event] = []
        var spare: [Event] = []
        while let user = try cache.nextUser(where: take, types: types) {
            var n = 0
            while true {
                if n == events.count { events.append(spare.popLast() ?? EventCache.Reader.blank) }
                guard try cache.nextEvent(into: &events[n]) != nil else { break }
                events[n].user = user
                n += 1
            }
            while events.count > n { spare.append(events.removeLast()) }
            body(user, events)
        }
        try cache.finish()
    }

    /// The same without the event cache: the partition's events gathered by user from the log,
    /// each user's put in effect order.
    static func users(in log: EventLog, partition p: Int, of count: Int, _ body: (_ user: String, _ events: [Event]) -> Void) throws {
        var streams: [String: [StoredEvent]] = [:]
        try log.forEach { record in
            guard Replay.partition(of: record.stream, count: count) == p else { return }
            let event = try Replay.decode(record)
            streams[event.user, default: []].append(StoredEvent(event: event, position: record.position, recorded: Timestamp(milliseconds: record.recorded)))
        }
        for user in streams.keys.sorted() {
            body(user, UserTimeline(streams[user]!).entries.map(\.stored.event))
        }
    }

    /// Runs of users (by their place in the event cache), handed out in order to the walks sharing
    /// them: a walk takes the next run when it passes the end of its last (the runs it passes over
    /// are another walk's).
    final class UserClaims: Sendable {
        /// Users per run: a run is a few milliseconds of a walk, and one atomic step.
        static let size = 64
        private let taken = Atomic<Int>(0)

        /// The next run not yet taken.
        func next() -> Range<Int> {
            let run = taken.wrappingAdd(1, ordering: .relaxed).oldValue
            return run * Self.size..<(run + 1) * Self.size
        }
    }

    /// A partition's walk, handed to the partitions' threads (each partition reads only its own state).
    private struct UncheckedWork<Walk>: @unchecked Sendable {
        let body: (Int) throws -> Walk
    }

    /// Each partition's result, set by its thread.
    private final class Results<Walk>: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result<Walk, any Error>?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ r: Result<Walk, any Error>) { lock.withLock { results[i] = r } }
        func takeAll() -> [Result<Walk, any Error>] {
            lock.withLock {
                defer { results = [] }
                return results.map { $0! }
            }
        }
    }
}
