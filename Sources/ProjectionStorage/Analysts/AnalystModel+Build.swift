import Projections
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
                                            start: { PartitionWalk() }, add: { w, user, events in w.add(user, events, walker) })
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
}
