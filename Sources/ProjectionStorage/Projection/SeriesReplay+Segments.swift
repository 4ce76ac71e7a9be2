import Projections
import Foundation
import EventStore
import SubscriptionDomain

/// A series pass split by segment: the totals of every user, and of each segment's users.
public struct SegmentedTotals: Sendable {
    public var segment: Segment
    /// Every user: what `SeriesReplay.run` gives.
    public var total: SeriesTotals
    /// Per segment value (`UserSegment`), the same pass over that value's users only; the values'
    /// days add up to `total`'s.
    public var segments: [String: SeriesTotals]
}

extension SeriesReplay {
    /// The series' days as `run` makes them, once for all users and once per value of `segment`,
    /// in one pass: each user's value is decided from their own events up to `options.asOf`, and
    /// their walk goes to that value's days (the total is the values' days added).
    public static func run(directory: String, options: ReplayOptions, segment: Segment, through: UInt64? = nil) throws -> SegmentedTotals {
        let partitions = max(1, options.partitions)
        let log = try ProjectionStore.openForScans(directory, through: through)
        let head = log.head
        let cached = options.eventCache && Replay.eventCacheReady(log, build: options.buildEventCache)
        let chooser = UserSegment(segment, profile: options.profile)
        let walks = try PartitionedWalk.run(directory: directory, head: head, cached: cached, partitions: partitions,
                                            start: { SegmentWalks(options: options) },
                                            add: { w, user, events in w.add(user, events, chooser) })
        var bySegment: [String: SeriesWalker] = [:]
        for w in walks {
            for (value, walker) in w.walkers {
                if bySegment[value] == nil { bySegment[value] = walker } else { bySegment[value]!.merge(walker) }
            }
        }
        let transfers = bySegment.values.flatMap(\.transfers)
        if !transfers.isEmpty {
            // Each recipient's correction goes to the recipient's own segment.
            let recipients = Set(transfers.map(\.transfer.to))
            let streams = try Replay.read(log, streams: recipients, transfersTo: nil).streams
            var fixes: [String: SeriesWalker] = [:]
            for user in recipients.sorted() {
                let events = UserTimeline(streams[user] ?? []).entries.map(\.stored.event)
                let value = events.isEmpty ? chooser.empty : chooser.value(events, asOf: options.asOf)
                var one = SeriesWalker(options: options)
                one.transfers = transfers.filter { $0.transfer.to == user }
                try correctRecipients(&one, log: log)
                if fixes[value] == nil { fixes[value] = SeriesWalker(options: options) }
                for (k, v) in one.changes { fixes[value]!.changes[k, default: SeriesDay()].add(v) }
            }
            for (value, fix) in fixes {
                if bySegment[value] == nil { bySegment[value] = SeriesWalker(options: options) }
                for (k, v) in fix.changes { bySegment[value]!.changes[k, default: SeriesDay()].add(v) }
            }
        }
        var all = SeriesWalker(options: options)
        for w in bySegment.values { all.merge(w) }
        func totals(_ w: SeriesWalker) -> SeriesTotals {
            // Every segment shares the pass's first event: their buckets then line up with the total's.
            SeriesTotals(options: options, head: head, firstEvent: all.firstEvent, flows: w.flows, changes: w.changes)
        }
        return SegmentedTotals(segment: segment, total: totals(all), segments: bySegment.mapValues(totals))
    }

    /// One partition's walkers, one per segment value met.
    struct SegmentWalks {
        let options: ReplayOptions
        var walkers: [String: SeriesWalker] = [:]

        init(options: ReplayOptions) { self.options = options }

        mutating func add(_ user: String, _ events: [Event], _ chooser: UserSegment) {
            let value = chooser.value(events, asOf: options.asOf)
            // Taken out and put back: the walker is mutated in place, not copied.
            var walker = walkers.removeValue(forKey: value) ?? SeriesWalker(options: options)
            walker.begin(user)
            for e in events {
                guard e.time <= options.asOf else { break }
                walker.event(e)
            }
            walker.end()
            walkers[value] = walker
        }
    }
}
