#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EventStore
import SubscriptionDomain
import EventCodec

extension Replay {
    /// A transferred subscription becomes the recipient's, after the recipient's own events, unless
    /// the recipient has one running (TRANSFER-IN). Senders are taken in id order. With
    /// `recipients`, only the transfers to them are handed over.
    package static func handTransfers(_ users: inout UserPartitions, options: ReplayOptions, to recipients: Set<String>? = nil) {
        let decider = PlanDecider(profile: options.profile)
        var outgoing: [(String, UserFold.Transfer)] = []
        users.forEachFold { f in
            if let t = f.transferOut, recipients?.contains(t.to) ?? true { outgoing.append((f.state.user, t)) }
        }
        outgoing.sort { $0.0 < $1.0 }
        for (_, transfer) in outgoing {
            var recipient = users[transfer.to] ?? UserFold(user: transfer.to)
            if decider.evolve(&recipient.state, transfer.received) != nil { users[transfer.to] = recipient }
        }
    }

    /// Folds `refold` again from their own streams (one pass over the log per round) and hands each
    /// of them the subscriptions transferred to them, senders in id order, as `handTransfers` does
    /// in a full replay; the other users' folds are kept. When a refolded user's own transfer now
    /// goes to someone else (or nowhere), that recipient is folded again too, until nothing moves.
    package static func refoldWithTransfers(log: EventLog, users: inout UserPartitions, decider: PlanDecider, options: ReplayOptions,
                                    refold start: Set<String>) throws {
        var done = Set<String>()
        var pending = start
        while !pending.isEmpty {
            let round = pending
            done.formUnion(round)
            pending = []
            var before: [String: String] = [:]
            for user in round { if let to = users[user]?.transferOut?.to { before[user] = to } }
            try refold(log: log, users: round, decider: decider, options: options) { user, fold in
                users[user] = fold.state.lastEventTime == nil ? nil : fold
            }
            for user in round where users[user]?.transferOut?.to != before[user] {
                for to in [before[user], users[user]?.transferOut?.to] { if let to, !done.contains(to) { pending.insert(to) } }
            }
        }
        handTransfers(&users, options: options, to: done)
    }

    /// One user's history as of `options.asOf`, as a full replay would fold it: their own stream
    /// and the subscriptions transferred to them. A `transfer` is in its sender's stream; with a
    /// handle opened with indexes and `secondaryKeys`, both are read through the indexes,
    /// otherwise gathered by one checked pass over the log; when someone transferred to the user,
    /// the senders' streams are read too, folded to see what they handed over.
    /// The events that arrived under `user` but were filed under another id of the same
    /// subscriber (`AppUserAlias`: RevenueCat's anonymous id the ledger knew first) are found
    /// through the alias index, and those streams are the user's too: one timeline, and the
    /// transfers to any of them.
    /// With `knownAt`, only records the log had recorded by then count.
    public static func history(log: EventLog, user: String, options: ReplayOptions, knownAt: Timestamp? = nil) throws -> UserHistory {
        func timeline(_ events: [StoredEvent]?) -> UserTimeline {
            let t = UserTimeline(events ?? [])
            return knownAt.map(t.known(at:)) ?? t
        }
        // Through the indexes when the handle has them (and the transfer keys); else one pass.
        let indexed = log.isIndexed(withKeys: secondaryKeys.name)
        func gather(_ users: Set<String>, _ recipient: String?) throws -> (streams: [String: [StoredEvent]], transfers: [String: [StoredEvent]]) {
            indexed ? try readIndexed(log, streams: users, transfersTo: recipient) : try read(log, streams: users, transfersTo: recipient)
        }
        let aliased = try aliasedStreams(of: user, in: log)
        let ids = [user] + aliased
        var first = try gather(Set(ids), user)
        for other in aliased {
            for (sender, events) in try gather([], other).transfers { first.transfers[sender, default: []] += events }
        }
        let senders = first.transfers.keys.sorted()
        let theirs = senders.isEmpty ? [:] : try gather(Set(senders), nil).streams
        let decider = PlanDecider(profile: options.profile)
        var received: [TransferIn] = []
        for sender in senders {
            let fold = refold(timeline(theirs[sender]), user: sender, decider: decider, options: options)
            guard let out = fold.transferOut, ids.contains(out.to),
                  let stored = first.transfers[sender]?.last(where: { $0.event.time == out.time && $0.recorded <= knownAt ?? $0.recorded })
            else { continue }
            received.append(TransferIn(from: sender, stored: stored, subscription: out.subscription))
        }
        let own = ids.flatMap { first.streams[$0] ?? [] }
        var history = UserHistory(user: user, timeline: timeline(own), transfersIn: received)
        history.aliasedStreams = aliased
        history.transferSenders = senders
        history.transfersAhead = first.transfers.values.joined().map(\.event.time).filter { $0 > options.asOf }
        return history
    }

    /// One checked pass over the log: the events in the streams of `users`, and, with a
    /// `recipient`, the `transfer` events naming them, by sender. Payloads are the canonical JSON
    /// that import writes, so only records holding the canonical `transfer` type are decoded for that.
    package static func read(_ log: EventLog, streams users: Set<String>, transfersTo recipient: String?) throws
        -> (streams: [String: [StoredEvent]], transfers: [String: [StoredEvent]]) {
        // About 64 bits per user: a record of another user rarely gets past the bitset to build a string.
        var filter = UserFilter(bits: max(1 << 16, users.count * 64))
        for u in users { filter.insert(u) }
        let marker = EventCodec.canonicalTypeMarker(.transfer)
        var streams: [String: [StoredEvent]] = [:], transfers: [String: [StoredEvent]] = [:]
        try marker.withUnsafeBytes { needle in
            try log.forEach { record in
                let own = filter.member(record.stream)
                guard own != nil || (recipient != nil && EventCodec.line(record.payload, holds: needle)) else { return }
                let stored = StoredEvent(event: try decode(record), position: record.position, recorded: Timestamp(milliseconds: record.recorded))
                if let own { streams[own, default: []].append(stored) }
                if let recipient, case .transfer(let t) = stored.event.data, t.to == recipient {
                    transfers[stored.event.user, default: []].append(stored)
                }
            }
        }
        return (streams, transfers)
    }
}
