import Glibc
import EventStore
import SubscriptionDomain

extension Replay {
    /// A transferred subscription becomes the recipient's, after the recipient's own events, unless
    /// the recipient has one running (TRANSFER-IN). Senders are taken in id order.
    static func handTransfers(_ users: inout UserPartitions, options: ReplayOptions) {
        let decider = PlanDecider(profile: options.profile)
        let outgoing = users.folds.compactMap { f in f.transferOut.map { (f.state.user, $0) } }.sorted { $0.0 < $1.0 }
        for (_, transfer) in outgoing {
            var recipient = users[transfer.to] ?? UserFold(user: transfer.to)
            if decider.receiveTransfer(&recipient.state, transfer.subscription, at: transfer.time) { users[transfer.to] = recipient }
        }
    }

    /// One user's history as of `options.asOf`, as a full replay would fold it: their own stream
    /// through the stream index, and the subscriptions transferred to them. A `transfer` is in its
    /// sender's stream, so those are found by one scan of the log; each sender is then folded from
    /// their own stream to find what they handed over. With `knownAt`, only records the log had
    /// recorded by then count.
    public static func history(log: EventLog, user: String, options: ReplayOptions, knownAt: Timestamp? = nil) throws -> UserHistory {
        func stream(_ u: String) throws -> UserTimeline {
            let t = try timeline(log: log, user: u)
            return knownAt.map(t.known(at:)) ?? t
        }
        let decider = PlanDecider(profile: options.profile)
        var received: [TransferIn] = []
        for (sender, sent) in try transfers(log: log, to: user).sorted(by: { $0.key < $1.key }) {
            let fold = refold(try stream(sender), user: sender, decider: decider, options: options)
            guard let out = fold.transferOut, out.to == user,
                  let stored = sent.last(where: { $0.event.time == out.time && $0.recorded <= knownAt ?? $0.recorded })
            else { continue }
            received.append(TransferIn(from: sender, stored: stored, subscription: out.subscription))
        }
        return UserHistory(user: user, timeline: try stream(user), transfersIn: received)
    }

    /// The `transfer` events naming `user` as recipient, by sender. Payloads are the canonical JSON
    /// that import writes, so a record that does not hold the user's id as a JSON string is skipped
    /// without decoding.
    static func transfers(log: EventLog, to user: String) throws -> [String: [StoredEvent]] {
        var quoted: [UInt8] = []
        EventCodec.appendString(user, to: &quoted)
        var found: [String: [StoredEvent]] = [:]
        try quoted.withUnsafeBytes { needle in
            try log.forEach { record in
                guard contains(record.payload, needle) else { return }
                let event = try decode(record.payload, position: record.position)
                guard event.type == .transfer, event.data.to == user else { return }
                found[event.user, default: []].append(StoredEvent(event: event, position: record.position, recorded: Timestamp(milliseconds: record.recorded)))
            }
        }
        return found
    }

    /// Whether `bytes` holds `needle` (non-empty): each candidate first byte found by `memchr`, then compared.
    static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, let n = needle.baseAddress, needle.count <= bytes.count else { return false }
        let first = Int32(needle[0])
        var at = 0
        let last = bytes.count - needle.count
        while at <= last, let hit = memchr(base + at, first, last - at + 1) {
            if memcmp(hit, n, needle.count) == 0 { return true }
            at = base.distance(to: UnsafeRawPointer(hit)) + 1
        }
        return false
    }
}
