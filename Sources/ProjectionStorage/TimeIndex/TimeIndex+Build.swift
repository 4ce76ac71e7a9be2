import Projections
import Foundation
import EventStore
import SubscriptionDomain
import Platform

extension TimeIndex {
    /// One partition's walks: the differences, and the senders' transfer changes.
    struct PartitionWalk: Sendable {
        var builder = TimeIndexBuilder()
        var senders: [UserSteps.Sender] = []
        /// The window funnels' working lists, kept from user to user.
        var scratch = WindowSteps.ChainScratch()
    }

    /// Builds the index of the log in `directory` as of its head (through `through`, default the
    /// head), every user walked once (`UserSteps`), `partitions` in parallel, each user's events
    /// read in effect order from the event cache (built first when missing and the folder is
    /// writable; otherwise gathered from the log). The recipients of transfers are then walked
    /// again from their own streams, with what was handed to them as of each instant.
    static func build(directory: String, profile: Profile, fingerprint: String, partitions: Int, through: UInt64? = nil) throws -> TimeIndex {
        try build(log: try ProjectionStore.openForScans(directory, through: through), directory: directory, profile: profile,
                  fingerprint: fingerprint, partitions: partitions)
    }

    /// The same as of the head of `log`, a read handle already open on the log in `directory`
    /// (the store's, with the log's index files: a handle for scans would hash the whole last
    /// segment again to find the head, 5 % of a build from the event cache).
    static func build(log: EventLog, directory: String, profile: Profile, fingerprint: String, partitions: Int) throws -> TimeIndex {
        let partitions = max(1, partitions)
        let head = log.head
        let cached = Replay.eventCacheReady(log, build: true)
        let steps = UserSteps(profile: profile, includeSandbox: fingerprint.hasSuffix(sandboxMark))
        // (Users shared out in runs: the differences are summed whichever walk gave them.)
        var walks = try PartitionedWalk.run(directory: directory, head: head, cached: cached, partitions: partitions, shared: true,
                                            start: { PartitionWalk() }, add: { w, user, events in walkUser(user, events, steps: steps, into: &w) })
        // The partitions' builders taken over (each held once, so each is let go once grouped).
        var parts: [TimeIndexBuilder] = []
        var senders: [UserSteps.Sender] = []
        for i in walks.indices {
            parts.append(walks[i].builder)
            senders += walks[i].senders
            walks[i] = PartitionWalk()
        }
        if !senders.isEmpty {
            var recipients = TimeIndexBuilder()
            try walkRecipients(senders, log: log, steps: steps, into: &recipients)
            parts.append(recipients)
        }
        guard let hash = try log.chainHash(at: head.position) else {
            throw ProjectionError(position: head.position, reason: "the log does not reach its own head")
        }
        var index = TimeIndexBuilder.finish(&parts, fingerprint: fingerprint, position: head.position, hash: hash)
        index.profileJSON = profile.encodedJSON()
        return index
    }

    /// One user's walk into the partition's results.
    private static func walkUser(_ user: String, _ events: [Event], steps: UserSteps, into w: inout PartitionWalk) {
        guard let first = events.first else { return }
        w.builder.noteEvent(first.time)
        let changes = steps.walk(user, events: events, scratch: &w.scratch) { w.builder.add($0, $1, $2) }
        if !changes.isEmpty { w.senders.append(UserSteps.Sender(user: user, changes: changes)) }
    }

    /// Each recipient's walk taken out as first walked (without what was handed to them) and put
    /// back with the subscriptions of every sender that ever named them, senders in id order;
    /// each difference times `sign`. Returns the number of recipients.
    @discardableResult
    static func walkRecipients(_ senders: [UserSteps.Sender], log: EventLog, steps: UserSteps, sign: Int64 = 1,
                               into builder: inout TimeIndexBuilder) throws -> Int {
        var byRecipient: [String: [UserSteps.Sender]] = [:]
        for s in senders {
            for to in Set(s.changes.compactMap { $0.transfer?.to }) { byRecipient[to, default: []].append(s) }
        }
        let streams = try Replay.read(log, streams: Set(byRecipient.keys), transfersTo: nil).streams
        for (user, given) in byRecipient.sorted(by: { $0.key < $1.key }) {
            let events = UserTimeline(streams[user] ?? []).entries.map(\.stored.event)
            _ = steps.walk(user, events: events, sign: -sign) { builder.add($0, $1, $2) }
            _ = steps.walk(user, events: events, senders: given.sorted { $0.user < $1.user }, sign: sign) { builder.add($0, $1, $2) }
        }
        return byRecipient.count
    }
}
