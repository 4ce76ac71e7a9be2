import Projections
import EventStore
import SubscriptionDomain

extension TimeIndex {
    /// What deriving an index under other rules from a kept one did.
    public struct Derivation: Sendable, Equatable {
        /// The profile name of the index derived from.
        public var from = ""
        /// Users the change reaches, walked under both profiles (their old differences taken out, the new ones put in).
        public var usersWalked = 0
        /// Of those, users whose two walks held the same again before their last event, and stopped there.
        public var usersSettledEarly = 0
        /// Recipients of transfers walked again with what their senders handed them under each profile.
        public var recipientsWalked = 0
    }

    /// One partition's walks for a derivation: the differences, and each profile's senders.
    private struct DeriveWalk: Sendable {
        var builder = TimeIndexBuilder()
        var old: [UserSteps.Sender] = []
        var new: [UserSteps.Sender] = []
        var walked = 0
        var settled = 0
    }

    /// This index, folded under `old` and covering `log`'s head, as the index under `new`
    /// (`fingerprint`, `profileJSON`) would be: only the users `change` reaches are walked, each
    /// under both profiles from their first event it reaches (before it, both fold alike: one walk
    /// there, forked) to where the two walks hold the same again past the last one it reaches
    /// (`ProfileChange.readAtEventsOnly`), the old walk's differences taken out (sign −1) and the
    /// new one's put in; the recipients of every transfer are walked again under both with what their senders
    /// handed them then (`walkRecipients`). What a user the change does not reach adds is the same
    /// under both profiles, so the sums over every user are those a build under `new` makes. The
    /// differences and this index's overlay are merged into its base: the index derived is one
    /// base of its own (its file never leans on the one derived from).
    ///
    /// Nil when the users the change reaches hold more than `share` of the log's events (at most:
    /// the event cache's header counts them per type): each is walked twice from their first
    /// reached event, so a build then costs less.
    func derived(directory: String, log: EventLog, old: Profile, new: Profile, change: ProfileChange,
                 fingerprint: String, profileJSON: String, partitions: Int, share: Double) throws -> (TimeIndex, Derivation)? {
        precondition(log.head.position == position, "an index is derived at the log's head")
        let a = UserSteps(profile: old, includeSandbox: includesSandbox)
        let b = UserSteps(profile: new, includeSandbox: includesSandbox)
        let cached = Replay.eventCacheReady(log, build: true)
        if cached, let census = EventCache.reader(directory, head: log.head),
           Double(census.eventCount(ofUsersWith: EventCache.typeBits(change.eventTypes))) > share * Double(census.count) {
            return nil
        }
        // Only users with an event the change reaches, or a transfer (a sender's), are read; none
        // when it reaches no one (every walk, a recipient's too, is the same under both).
        let types = EventCache.typeBits(readFor: change)
        var walks = change.reachesNobody ? [] : try PartitionedWalk.run(directory: directory, head: log.head, cached: cached, partitions: max(1, partitions), types: types,
                                                                                  shared: true, start: { DeriveWalk() }, add: { w, user, events in
            // A sender's transfers are handed on to recipients: walked whole, never stopped early.
            let transfers = events.contains { $0.type == .transfer }
            if let first = events.firstIndex(where: { change.reaches($0) }) {
                // Both rules fold alike before the first event the change reaches: one walk up to
                // it (nothing given: what both would give cancels out), then one under each.
                w.walked += 1
                var before = a.start(user)
                a.skip(&before, events: events, before: events[first].time)
                var after = b.forked(before)
                // (The old walk's differences come signed −1.)
                func add(_ k: TimeKey, _ t: Timestamp, _ d: Int64) { w.builder.add(k, t, d) }
                // Past the last event the change reaches, walks that hold the same give the same
                // from there on (when the change is read at events only, and nothing is handed
                // on by transfer): both stop there.
                let last = change.readAtEventsOnly ? events.lastIndex(where: { change.reaches($0) })! : events.count
                var i = first
                while i < events.count {
                    var j = i
                    while j < events.count, events[j].time == events[i].time { j += 1 }
                    let limit = j < events.count ? events[j].time : nil
                    a.advance(&before, events: events, before: limit, sign: -1, add)
                    b.advance(&after, events: events, before: limit, add)
                    if j > last, !transfers, limit != nil, before.holdsTheSame(as: after) {
                        w.settled += 1
                        return
                    }
                    i = j
                }
                // The window funnels follow from the funnel events alone: alike, they cancel out.
                let funnels = before.funnelEvents != after.funnelEvents
                let outsBefore = a.finish(&before, events: events, sign: -1, windowFunnels: funnels, add)
                let outsAfter = b.finish(&after, events: events, windowFunnels: funnels, add)
                if !outsBefore.isEmpty { w.old.append(UserSteps.Sender(user: user, changes: outsBefore)) }
                if !outsAfter.isEmpty { w.new.append(UserSteps.Sender(user: user, changes: outsAfter)) }
            } else if transfers {
                // Not reached: the same transfers under both profiles.
                let changes = a.walk(user, events: events) { _, _, _ in }
                if !changes.isEmpty {
                    w.old.append(UserSteps.Sender(user: user, changes: changes))
                    w.new.append(UserSteps.Sender(user: user, changes: changes))
                }
            }
        })
        var derivation = Derivation()
        var parts: [TimeIndexBuilder] = []
        var senders: (old: [UserSteps.Sender], new: [UserSteps.Sender]) = ([], [])
        for i in walks.indices {
            derivation.usersWalked += walks[i].walked
            derivation.usersSettledEarly += walks[i].settled
            parts.append(walks[i].builder)
            senders.old += walks[i].old
            senders.new += walks[i].new
            walks[i] = DeriveWalk()
        }
        var kept = TimeIndexBuilder()
        overlay.forEachDelta { kept.carry($0, $1, $2) }
        kept.count(magnitude: overlayMagnitude)
        if !senders.old.isEmpty || !senders.new.isEmpty {
            derivation.recipientsWalked = try Self.walkRecipients(senders.old, log: log, steps: a, sign: -1, into: &kept)
                + Self.walkRecipients(senders.new, log: log, steps: b, into: &kept)
        }
        parts.append(kept)
        let magnitude = parts.reduce(Int64(0)) { $0.addingSaturated($1.moneyMagnitude) }
        var out = with(overlay: TimeIndexBuilder.steps(of: &parts), magnitude: magnitude, firstEvent: firstEvent, position: position, hash: hash)
        out.fingerprint = fingerprint
        out.profileJSON = profileJSON
        return (try out.compacted(), derivation)
    }
}
