import Projections
import Foundation
import EventStore
import SubscriptionDomain
import Platform

/// Builds a series in one pass over the users (`SeriesWalker`), partitions folded in parallel,
/// each user's events read in effect order from the event cache (built first when missing and
/// the folder is writable; otherwise gathered from the log in memory).
public enum SeriesReplay {
    /// The series' days as of `options.asOf` (which is also the series' end), analytics window
    /// `options.from`…`options.to`, over the log's records up to `through` (default: its head).
    public static func run(directory: String, options: ReplayOptions, through: UInt64? = nil) throws -> SeriesTotals {
        let partitions = max(1, options.partitions)
        let log = try ProjectionStore.openForScans(directory, through: through)
        let head = log.head
        let cached = options.eventCache && Replay.eventCacheReady(log, build: options.buildEventCache)
        let walks = try PartitionedWalk.run(directory: directory, head: head, cached: cached, partitions: partitions,
                                            cache: { p in try walk(cache: directory, head: head, partition: p, of: partitions, options: options) },
                                            log: { log, p in try walk(log: log, partition: p, of: partitions, options: options) })
        var all = SeriesWalker(options: options)
        for w in walks { all.merge(w) }
        if !all.transfers.isEmpty { try correctRecipients(&all, log: log) }
        return SeriesTotals(options: options, head: head, firstEvent: all.firstEvent, flows: all.flows, changes: all.changes)
    }

    static func walk(cache directory: String, head: LogHead, partition p: Int, of count: Int, options: ReplayOptions) throws -> SeriesWalker {
        guard var cache = EventCache.reader(directory, head: head) else {
            throw ProjectionReader.Unreadable(offset: 0, reason: "the event cache is gone or no longer matches the log")
        }
        cache.readsIDs = false   // (a walk reads no event's id)
        var walker = SeriesWalker(options: options)
        var event = EventCache.Reader.blank
        while let user = try cache.nextUser(where: { Replay.partition(of: $0, count: count) == p }) {
            walker.begin(user)
            event.user = user
            while try cache.nextEvent(into: &event) != nil {
                guard event.time <= options.asOf else { try cache.skipUser(); break }
                walker.event(event)
            }
            walker.end()
        }
        try cache.finish()
        return walker
    }

    /// Without the event cache: the partition's events gathered by user from the log, then walked.
    static func walk(log: EventLog, partition p: Int, of count: Int, options: ReplayOptions) throws -> SeriesWalker {
        var streams: [String: [StoredEvent]] = [:]
        try log.forEach { record in
            guard Replay.partition(of: record.stream, count: count) == p else { return }
            let event = try Replay.decode(record)
            guard event.time <= options.asOf else { return }
            streams[event.user, default: []].append(StoredEvent(event: event, position: record.position, recorded: Timestamp(milliseconds: record.recorded)))
        }
        var walker = SeriesWalker(options: options)
        for user in streams.keys.sorted() {
            walker.begin(user)
            for entry in UserTimeline(streams[user]!).entries { walker.event(entry.stored.event) }
            walker.end()
        }
        return walker
    }

    /// A transferred subscription is the recipient's from the transfer on (TRANSFER-IN, after the
    /// recipient's own events, senders in id order, as a replay hands them over): each recipient's
    /// stocks are walked again, once taken out as walked and once put back with what they received.
    static func correctRecipients(_ all: inout SeriesWalker, log: EventLog) throws {
        // A sender's transfers, in the order made: each one is theirs to hand over until the next.
        var bySender: [String: [UserFold.Transfer]] = [:]
        for t in all.transfers { bySender[t.sender, default: []].append(t.transfer) }
        var byRecipient: [String: [(sender: String, transfer: UserFold.Transfer, until: Timestamp?)]] = [:]
        for (sender, made) in bySender {
            for (i, t) in made.enumerated() { byRecipient[t.to, default: []].append((sender, t, i + 1 < made.count ? made[i + 1].time : nil)) }
        }
        let streams = try Replay.read(log, streams: Set(byRecipient.keys), transfersTo: nil).streams
        var walker = SeriesWalker(options: all.options)
        for (user, received) in byRecipient.sorted(by: { $0.key < $1.key }) {
            let events = UserTimeline(streams[user] ?? []).entries.map(\.stored.event).filter { $0.time <= all.options.asOf }
            let incoming = received.sorted { ($0.sender, $0.transfer.time) < ($1.sender, $1.transfer.time) }
                .map { SeriesWalker.Incoming(time: $0.transfer.time, until: $0.until, subscription: $0.transfer.subscription) }
            for (sign, given) in [(-1, [SeriesWalker.Incoming]()), (1, incoming)] {
                walker.begin(user, incoming: given, sign: sign, flows: false)
                for e in events { walker.event(e) }
                walker.end()
            }
        }
        for (k, v) in walker.changes { all.changes[k, default: SeriesDay()].add(v) }
    }
}
