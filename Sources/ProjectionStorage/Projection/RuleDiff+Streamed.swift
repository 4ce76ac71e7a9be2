import EventStore
import SubscriptionDomain
import Projections

extension RuleDiff {
    /// One partition's part of a streamed comparison: the differences of its users as their own
    /// events leave them, and what its users transfer away as of the instant under either rule set.
    struct StreamedWalk: Sendable {
        var differences: [PlanDifference] = []
        var senders: [Sender] = []
    }

    /// A user who transfers a subscription away under A or B (or both), as of the instant.
    struct Sender: Sendable {
        var user: String
        var a: UserFold.Transfer?
        var b: UserFold.Transfer?
    }

    /// The users of the log in `directory` whose plans differ under `a` and `b` as of `instant`,
    /// as `compare` gives them for the two snapshots, in user id order; nil when the event cache
    /// does not match the log (the caller then folds the two snapshots).
    ///
    /// No snapshot is held: each user's events, read once from the event cache, are folded under
    /// both rule sets side by side and only a difference is kept (the partitions on the cores).
    /// When the change from `a` to `b` reaches some users only and leaves the entitlement view as
    /// it was (`ProfileChange`), only the users with an event it can reach, and the senders of
    /// transfers, are read: the others' plans are the same under both.
    /// A subscription transferred to a user is handed over after the user's own events, senders
    /// in id order, as a replay does (TRANSFER-IN): so the recipients named by any sender are
    /// folded again from their own streams once every sender is known, and their first
    /// comparison is replaced.
    public static func streamed(directory: String, a: Profile, b: Profile, asOf instant: Timestamp, partitions: Int) throws -> [PlanDifference]? {
        let log = try ProjectionStore.openForScans(directory)
        guard Replay.eventCacheReady(log, build: false) else { return nil }
        let options = (ReplayOptions(profile: a, asOf: instant), ReplayOptions(profile: b, asOf: instant))
        let deciders = (PlanDecider(profile: a), PlanDecider(profile: b))
        let change = ProfileChange(from: a, to: b)
        let types = change.reachesEveryone || change.changesTheView ? UInt64.max : EventCache.typeBits(readFor: change)
        let walks = try PartitionedWalk.run(directory: directory, head: log.head, cached: true, partitions: max(1, partitions), types: types,
                                            start: { StreamedWalk() }) { walk, user, events in
            var fa = UserFold(user: user), fb = UserFold(user: user)
            for e in events {
                // Effect order: once one event is after the instant, so are the rest.
                guard e.time <= instant else { break }
                fa.apply(e, deciders.0, options.0)
                fb.apply(e, deciders.1, options.1)
            }
            // A user appears once an event of theirs is folded, as in a replay.
            guard fa.state.lastEventTime != nil else { return }
            if fa.transferOut != nil || fb.transferOut != nil { walk.senders.append(Sender(user: user, a: fa.transferOut, b: fb.transferOut)) }
            if let d = difference(user, deciders.0.view(fa.state, at: instant), deciders.1.view(fb.state, at: instant)) {
                walk.differences.append(d)
            }
        }
        var out = walks.flatMap(\.differences)
        // Each recipient's senders (under A or B), in id order.
        var given: [String: [Sender]] = [:]
        for s in walks.flatMap(\.senders).sorted(by: { $0.user < $1.user }) {
            for to in Set([s.a?.to, s.b?.to].compactMap { $0 }) { given[to, default: []].append(s) }
        }
        if !given.isEmpty {
            let recipients = Set(given.keys)
            out.removeAll { recipients.contains($0.user) }
            let streams = try Replay.read(log, streams: recipients, transfersTo: nil).streams
            for (user, senders) in given {
                let timeline = UserTimeline(streams[user] ?? [])
                var fa = Replay.refold(timeline, user: user, decider: deciders.0, options: options.0)
                var fb = Replay.refold(timeline, user: user, decider: deciders.1, options: options.1)
                var present = (a: fa.state.lastEventTime != nil, b: fb.state.lastEventTime != nil)
                // (A transfer not received leaves the state as it was: `PlanDecider.evolve`.)
                for s in senders {
                    if let t = s.a, t.to == user { present.a = deciders.0.receiveTransfer(&fa.state, t.subscription, at: t.time) || present.a }
                    if let t = s.b, t.to == user { present.b = deciders.1.receiveTransfer(&fb.state, t.subscription, at: t.time) || present.b }
                }
                guard present.a || present.b,
                      let d = difference(user, deciders.0.view(fa.state, at: instant), deciders.1.view(fb.state, at: instant)) else { continue }
                out.append(d)
            }
        }
        return out.sorted { $0.user < $1.user }
    }
}
