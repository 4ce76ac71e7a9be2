import EventStore
import SubscriptionDomain

extension Replay {
    /// The secondary keys of the ledger's records: the user a `transfer` names (`data.to`), so
    /// that one user's history finds the transfers to them through the log's index
    /// (`EventLog.records(withKey:)`) instead of a pass over every record. Only payloads holding
    /// the canonical `transfer` marker are decoded. Every handle of the tool opens the log with it:
    /// index files built with another function are not used (the log indexes the segments again).
    public static let secondaryKeys = SecondaryKeys(name: "transfer-to/1") { _, payload in
        let holds = transferMarker.withUnsafeBytes { contains(payload, $0) }
        guard holds, let event = try? EventCodec.decode(payload), case .transfer(let t) = event.data else { return [] }
        return [t.to]
    }

    /// The bytes every canonical transfer line holds (`EventCodec.canonicalTypeMarker`), built once.
    static let transferMarker = EventCodec.canonicalTypeMarker(.transfer)

    /// The event a record copied out of the log holds, with the checks `decode(_: RecordView)` makes.
    static func decode(_ record: Record) throws -> Event {
        let event = try record.payload.withUnsafeBytes { try decode($0, position: record.position) }
        guard event.user == record.stream else {
            throw ProjectionError(position: record.position, reason: "the event's user '\(event.user)' is not the record's stream '\(record.stream)'")
        }
        guard event.id == record.id else {
            throw ProjectionError(position: record.position, reason: "the event's id '\(event.id)' is not the record's id '\(record.id)'")
        }
        return event
    }

    /// `read(_:streams:transfersTo:)` through the log's stream and secondary-key indexes: the
    /// records of those streams and the transfers naming `recipient`, each record read and checked
    /// (CRC) where the index points; the cost follows those records, not the log's size.
    static func readIndexed(_ log: EventLog, streams users: Set<String>, transfersTo recipient: String?) throws
        -> (streams: [String: [StoredEvent]], transfers: [String: [StoredEvent]]) {
        func stored(_ r: Record) throws -> StoredEvent {
            StoredEvent(event: try decode(r), position: r.position, recorded: Timestamp(milliseconds: r.recorded))
        }
        var streams: [String: [StoredEvent]] = [:], transfers: [String: [StoredEvent]] = [:]
        for user in users.sorted() {
            let records = try log.records(inStream: user)
            if !records.isEmpty { streams[user] = try records.map(stored) }
        }
        if let recipient {
            for r in try log.records(withKey: recipient) {
                let s = try stored(r)
                if case .transfer(let t) = s.event.data, t.to == recipient { transfers[s.event.user, default: []].append(s) }
            }
        }
        return (streams, transfers)
    }
}
