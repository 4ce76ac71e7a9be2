import EventStore
import SubscriptionDomain

extension Replay {
    /// Writes the event cache of the log in `directory` (one checked pass that decodes every
    /// record) unless it already matches the log's head; returns the events it holds and its size.
    public static func buildEventCache(directory: String) throws -> (events: Int, bytes: Int) {
        let log = try ProjectionStore.openForScans(directory)
        if EventCache.reader(directory, head: log.head) == nil { try EventCache.build(log) }
        let size = try DurableFile.Source(path: EventCache.path(directory))?.size ?? 0
        return (Int(log.head.position), size)
    }

    /// Whether the event cache of the log is there for its head, building it if not and asked
    /// to. False when it cannot be built (the folder is not writable, or a record is not an
    /// event: the fold from the log then names it).
    static func eventCacheReady(_ log: EventLog, build: Bool) -> Bool {
        if EventCache.reader(log.directory, head: log.head) != nil { return true }
        return build && (try? EventCache.build(log)) != nil
    }

    /// One partition's fold from the event cache: the same folds as `fold(log:...)` without
    /// parsing JSON. Users whose events arrived out of time order are then folded again from
    /// their events, gathered by a second pass over the cache (gathering them during the first
    /// pass was 0.2 s faster on 6 M events but fragmented the heap: +64 MiB at the peak).
    /// Throws `ProjectionReader.Unreadable` if the cache is damaged.
    static func fold(cache directory: String, head: LogHead, partition p: Int, of count: Int, options: ReplayOptions) throws -> UserTable<UserFold> {
        var cache = try openCache(directory, head: head)
        let decider = PlanDecider(profile: options.profile)
        var users = UserTable<UserFold>(capacity: cache.count / 5 / count)
        // Per string number that names a user: their slot + 1 here; or one of these.
        let unmet: Int32 = 0, elsewhere: Int32 = -1, notFolded: Int32 = -2
        var slots: [Int32] = []
        var event = EventCache.Reader.blank
        while let u = try cache.nextUser() {
            if u >= slots.count { slots.append(contentsOf: repeatElement(unmet, count: cache.strings.count - slots.count)) }
            if slots[u] == unmet {
                var user = cache.strings[u]
                slots[u] = user.withUTF8 { partition(of: UnsafeRawBufferPointer($0), count: count) } == p ? notFolded : elsewhere
            }
            guard slots[u] != elsewhere else { try cache.skipEvent(); continue }
            _ = try cache.event(user: u, into: &event)
            guard event.time <= options.asOf else { continue }
            // A user appears once an event of theirs is folded, as in the fold from the log.
            if slots[u] == notFolded { slots[u] = Int32(users.slot(addingNew: cache.strings[u]) + 1) }
            users[slot: Int(slots[u] - 1)].apply(event, decider, options)
        }
        try cache.finish()
        let late = users.outOfOrderUsers()
        if !late.isEmpty {
            var again = try openCache(directory, head: head)
            refold(streams: try gather(&again, streams: late), users: late, decider: decider, options: options) { users[$0] = $1 }
        }
        return users
    }

    private static func openCache(_ directory: String, head: LogHead) throws -> EventCache.Reader {
        guard let cache = EventCache.reader(directory, head: head) else {
            throw ProjectionReader.Unreadable(offset: 0, reason: "the event cache is gone or no longer matches the log")
        }
        return cache
    }

    /// The events of `users`, read from the cache.
    static func gather(_ cache: inout EventCache.Reader, streams users: Set<String>) throws -> [String: [StoredEvent]] {
        var wanted: [Bool] = []
        var streams: [String: [StoredEvent]] = [:]
        while let u = try cache.nextUser() {
            while wanted.count < cache.strings.count { wanted.append(users.contains(cache.strings[wanted.count])) }
            if wanted[u] {
                streams[cache.strings[u], default: []].append(try cache.event(user: u))
            } else {
                try cache.skipEvent()
            }
        }
        try cache.finish()
        return streams
    }
}
