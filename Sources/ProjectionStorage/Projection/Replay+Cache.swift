import Projections
import EventStore
import SubscriptionDomain
import Platform

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
    /// parsing JSON. The cache holds each user's events together and in effect order, so a user
    /// is folded in one run, found by no lookup, and never folded again for a late event.
    /// Throws `ProjectionReader.Unreadable` if the cache is damaged.
    static func fold(cache directory: String, head: LogHead, partition p: Int, of count: Int, options: ReplayOptions) throws -> UserTable<UserFold> {
        guard var cache = EventCache.reader(directory, head: head) else {
            throw ProjectionReader.Unreadable(offset: 0, reason: "the event cache is gone or no longer matches the log")
        }
        cache.readsIDs = false   // (a walk reads no event's id)
        let decider = PlanDecider(profile: options.profile)
        var folds = ContiguousArray<UserFold>()
        folds.reserveCapacity(cache.userCount / count + cache.userCount / count / 64)
        var event = EventCache.Reader.blank
        while let user = try cache.nextUser(where: { partition(of: $0, count: count) == p }) {
            // A user appears once an event of theirs is folded, as in the fold from the log.
            var folded = false
            event.user = user
            while try cache.nextEvent(into: &event) != nil {
                // Effect order: once one event is after the instant, so are the rest.
                guard event.time <= options.asOf else { try cache.skipUser(); break }
                if !folded { folds.append(UserFold(user: user)) }
                folded = true
                folds[folds.count - 1].apply(event, decider, options)
            }
        }
        try cache.finish()
        return UserTable(folds: folds)
    }
}
