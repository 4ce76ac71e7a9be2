import Foundation
import EventStore
import SubscriptionDomain
import Platform

extension AnalystModel {
    /// Builds the model of the log in `directory` as of its head (through `through`, default the
    /// head): every user walked once (`AnalystWalk`), `partitions` in parallel, each user's events
    /// in effect order from the event cache (built first when missing and the folder is
    /// writable; otherwise gathered from the log); the recipients of transfers are then walked
    /// again with what was handed to them, as the time index does.
    public static func build(directory: String, profile: Profile, partitions: Int, through: UInt64? = nil) throws -> (model: AnalystModel, head: LogHead) {
        let partitions = max(1, partitions)
        let log = try ProjectionStore.openForScans(directory, through: through)
        let head = log.head
        let cached = Replay.eventCacheReady(log, build: true)
        let walker = AnalystWalk(profile: profile)
        let walks = try PartitionedWalk.run(directory: directory, head: head, cached: cached, partitions: partitions,
                                            cache: { p in try walk(cache: directory, head: head, partition: p, of: partitions, walker: walker) },
                                            log: { log, p in try walk(log: log, partition: p, of: partitions, walker: walker) })
        var facts: [AnalystFacts] = []
        var senders: [UserSteps.Sender] = []
        for w in walks {
            facts += w.facts
            senders += w.senders
        }
        if !senders.isEmpty {
            var byRecipient: [String: [UserSteps.Sender]] = [:]
            for s in senders {
                for to in Set(s.changes.compactMap { $0.transfer?.to }) { byRecipient[to, default: []].append(s) }
            }
            let streams = try Replay.read(log, streams: Set(byRecipient.keys), transfersTo: nil).streams
            facts.removeAll { byRecipient[$0.user] != nil }
            for (user, given) in byRecipient.sorted(by: { $0.key < $1.key }) {
                let events = UserTimeline(streams[user] ?? []).entries.map(\.stored.event)
                facts.append(walker.walk(user, events: events, senders: given.sorted { $0.user < $1.user }).facts)
            }
        }
        return (AnalystModel(facts), head)
    }

    struct PartitionWalk: Sendable {
        var facts: [AnalystFacts] = []
        var senders: [UserSteps.Sender] = []

        mutating func add(_ user: String, _ events: [Event], _ walker: AnalystWalk) {
            guard !events.isEmpty else { return }
            let (f, changes) = walker.walk(user, events: events)
            facts.append(f)
            if !changes.isEmpty { senders.append(UserSteps.Sender(user: user, changes: changes)) }
        }
    }

    static func walk(cache directory: String, head: LogHead, partition p: Int, of count: Int, walker: AnalystWalk) throws -> PartitionWalk {
        guard var cache = EventCache.reader(directory, head: head) else {
            throw ProjectionReader.Unreadable(offset: 0, reason: "the event cache is gone or no longer matches the log")
        }
        var w = PartitionWalk()
        var event = EventCache.Reader.blank
        var events: [Event] = []
        while let user = try cache.nextUser(where: { Replay.partition(of: $0, count: count) == p }) {
            event.user = user
            events.removeAll(keepingCapacity: true)
            while try cache.nextEvent(into: &event) != nil { events.append(event) }
            w.add(user, events, walker)
        }
        try cache.finish()
        return w
    }

    static func walk(log: EventLog, partition p: Int, of count: Int, walker: AnalystWalk) throws -> PartitionWalk {
        var streams: [String: [StoredEvent]] = [:]
        try log.forEach { record in
            guard Replay.partition(of: record.stream, count: count) == p else { return }
            let event = try Replay.decode(record)
            streams[event.user, default: []].append(StoredEvent(event: event, position: record.position, recorded: Timestamp(milliseconds: record.recorded)))
        }
        var w = PartitionWalk()
        for user in streams.keys.sorted() {
            w.add(user, UserTimeline(streams[user]!).entries.map(\.stored.event), walker)
        }
        return w
    }
}
