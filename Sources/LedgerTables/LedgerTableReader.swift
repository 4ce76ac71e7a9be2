#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EventStore
import Parquet
import SubscriptionDomain
import EventCodec

/// Reads one log's tables row by row, with memory bounded whatever the log's size: `events`
/// streams the records; `subscriptions` and `users` fold the users in buckets (by FNV-1a of the
/// user id, `recordsPerBucket` records' worth each), one pass over the log per bucket, and hand
/// each bucket's rows over (users in id order) before folding the next.
///
/// The folds are the ledger's: `PlanDecider` over each user's events up to `asOf` in effect order
/// (users whose events came out of time order are folded again from their gathered stream, as
/// `Replay` does), then the subscriptions transferred to them handed over, senders in id order.
public struct LedgerTableReader {
    public let log: EventLog
    /// The head every pass reads up to (records appended meanwhile are not read).
    public let head: LogHead
    public let profile: Profile
    public let asOf: Timestamp
    /// About how many records' users are folded at once: memory is about their folds.
    public var recordsPerBucket: UInt64 = 1_000_000

    public init(log: EventLog, profile: Profile, asOf: Timestamp) {
        self.log = log
        head = log.head
        self.profile = profile
        self.asOf = asOf
    }

    /// Calls `body` with each row of `table`, reusing one array.
    public func forEachRow(_ table: LedgerTable, _ body: ([ParquetValue]) throws -> Void) throws {
        var row: [ParquetValue] = []
        row.reserveCapacity(table.columns.count)
        switch table {
        case .events:
            var rows = EventRows()
            try log.forEach(through: head.position) { r in
                try rows.row(r, into: &row)
                try body(row)
            }
        case .subscriptions:
            let decider = PlanDecider(profile: profile)
            var tiers: [String: String?] = [:]
            try forEachFold(decider) { fold in
                for period in fold.finishedPeriods(at: asOf, decider) {
                    let tier = tiers[period.product] ?? {
                        let t = profile.product(period.product)?.tier ?? profile.unknownProductGrant?.tier
                        tiers[period.product] = t
                        return t
                    }()
                    period.cells(tier: tier, into: &row)
                    try body(row)
                }
            }
        case .users:
            let decider = PlanDecider(profile: profile)
            var json: [UInt8] = []
            try forEachFold(decider) { fold in
                UserRows.cells(decider.view(fold.state, at: asOf), asOf: asOf, json: &json, into: &row)
                try body(row)
            }
        }
    }

    /// The number of buckets the users are folded in.
    var bucketCount: Int { max(1, Int((head.position + recordsPerBucket - 1) / max(1, recordsPerBucket))) }

    @inline(__always) static func bucket(_ user: UnsafeRawBufferPointer, _ count: Int) -> Int {
        count == 1 ? 0 : Int(FNV1a.hash(user) % UInt64(count))
    }

    static func bucket(_ user: String, _ count: Int) -> Int {
        var user = user
        return user.withUTF8 { bucket(UnsafeRawBufferPointer($0), count) }
    }

    /// Folds the users bucket by bucket, calling `body` with each user's fold (in id order within a bucket).
    func forEachFold(_ decider: PlanDecider, _ body: (PeriodFold) throws -> Void) throws {
        let count = bucketCount
        // Senders by recipient: a recipient's bucket folds its senders too (only to see what they handed over).
        let transfers = count > 1 ? try transfersByRecipient() : [:]
        for k in 0..<count {
            var senders = Set<String>()
            for (to, from) in transfers where Self.bucket(to, count) == k { senders.formUnion(from) }
            var folds: [String: PeriodFold] = [:]
            var decoder = EventCodec.LineDecoder()
            try log.forEach(through: head.position) { r in
                guard Self.bucket(r.stream, count) == k || (!senders.isEmpty && senders.contains(r.streamString)) else { return }
                let event = try Self.decode(r, &decoder)
                guard event.time <= asOf else { return }
                folds[event.user, default: PeriodFold(user: event.user)].apply(event, decider)
            }
            try refoldOutOfOrder(&folds, decider)
            // Transfers handed over after every own event, senders in id order (as the ledger's replay does).
            var outgoing: [(String, PeriodFold.TransferOut)] = []
            for (user, fold) in folds { if let t = fold.transferOut, Self.bucket(t.to, count) == k { outgoing.append((user, t)) } }
            outgoing.sort { $0.0 < $1.0 }
            for (_, t) in outgoing {
                var recipient = folds[t.to] ?? PeriodFold(user: t.to)
                if recipient.receive(t, decider) { folds[t.to] = recipient }
            }
            let users = folds.keys.filter { Self.bucket($0, count) == k }.sorted()
            for user in users { try body(folds[user]!) }
        }
    }

    /// Folds again, from their events gathered in one more pass and put in effect order, the users
    /// whose events came out of time order.
    private func refoldOutOfOrder(_ folds: inout [String: PeriodFold], _ decider: PlanDecider) throws {
        let late = Set(folds.lazy.filter { $0.value.outOfOrder }.map(\.key))
        guard !late.isEmpty else { return }
        var streams: [String: [StoredEvent]] = [:]
        var decoder = EventCodec.LineDecoder()
        try log.forEach(through: head.position) { r in
            let user = r.streamString
            guard late.contains(user) else { return }
            let event = try Self.decode(r, &decoder)
            streams[user, default: []].append(StoredEvent(event: event, position: r.position, recorded: Timestamp(milliseconds: r.recorded)))
        }
        for user in late {
            var fold = PeriodFold(user: user)
            for entry in UserTimeline(streams[user] ?? []).entries where entry.stored.event.time <= asOf { fold.apply(entry.stored.event, decider) }
            fold.outOfOrder = false
            folds[user] = fold
        }
    }

    /// The senders of every `transfer` by `asOf`, by recipient: one pass decoding only the records
    /// that hold the canonical `transfer` type.
    private func transfersByRecipient() throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        var decoder = EventCodec.LineDecoder()
        let marker = EventCodec.canonicalTypeMarker(.transfer)
        try marker.withUnsafeBytes { needle in
            try log.forEach(through: head.position) { r in
                guard EventCodec.line(r.payload, holds: needle) else { return }
                let event = try Self.decode(r, &decoder)
                if case .transfer(let t) = event.data, event.time <= asOf { out[t.to, default: []].append(event.user) }
            }
        }
        return out
    }


    /// The event in a record, whose user must be the record's stream.
    static func decode(_ r: RecordView, _ decoder: inout EventCodec.LineDecoder) throws(TableError) -> Event {
        let event: Event
        do { event = try decoder.decode(r.payload) } catch { throw TableError(position: r.position, "not a valid event: \(error)") }
        guard event.user.utf8.elementsEqual(r.stream) else {
            throw TableError(position: r.position, "the event's user '\(event.user)' is not the record's stream '\(r.streamString)'")
        }
        return event
    }
}
