import EventStore
import SubscriptionDomain
import EventCodec

extension Replay {
    /// The secondary keys of the ledger's records: the user a `transfer` names (`data.to`), so
    /// that one user's history finds the transfers to them through the log's index
    /// (`EventLog.records(withKey:)`) instead of a pass over every record; and each store
    /// transaction id a record names (`transaction:ID`, for `data.transaction` and
    /// `data.originalTransaction`), so that an App Store notification without `appAccountToken`
    /// finds its user without a scan; and the app user id an event arrived under when it was
    /// filed under another id of the same subscriber (`alias:ID`, `AppUserAlias`), so that the
    /// identified id finds the anonymous id's history. Only payloads holding the canonical
    /// markers are decoded. Every handle of the tool opens the log with it: index files built
    /// with another function are not used (the log indexes the segments again).
    public static let secondaryKeys = SecondaryKeys(name: "transfer-to+transactions+aliases/3") { _, payload in
        let transfer = transferMarker.withUnsafeBytes { EventCodec.line(payload, holds: $0) }
        let transaction = transactionMarkers.contains { marker in marker.withUnsafeBytes { EventCodec.line(payload, holds: $0) } }
        let alias = AppUserAlias.marker.withUnsafeBytes { EventCodec.line(payload, holds: $0) }
        // A payload that is not an event has no keys here; every fold that reads it fails naming
        // its position (`Replay.decode`), so no answer is made without it.
        guard transfer || transaction || alias, let event = try? EventCodec.decode(payload) else { return [] }
        var keys: [String] = []
        if case .transfer(let t) = event.data { keys.append(t.to) }
        if alias, let id = AppUserAlias.appUserID(of: event) { keys.append(aliasKey(id)) }
        if event.type.isStoreEvent {
            let ref = event.data.subscriptionRef
            if let o = ref.originalTransaction { keys.append(transactionKey(o)) }
            if let t = ref.transaction, t != ref.originalTransaction { keys.append(transactionKey(t)) }
        }
        return keys
    }

    /// The secondary key under which the records naming store transaction `id` are found.
    public static func transactionKey(_ id: String) -> String { "transaction:" + id }

    /// The user whose store events name transaction `id` (as `transaction` or
    /// `originalTransaction`), through the log's transaction index; nil if none does. A log
    /// opened without the ledger's secondary keys is read whole (and any failed read throws).
    public static func user(ofTransaction id: String, in log: EventLog) throws -> String? {
        func names(_ event: Event) -> Bool {
            guard event.type.isStoreEvent else { return false }
            let ref = event.data.subscriptionRef
            return ref.originalTransaction == id || ref.transaction == id
        }
        if log.isIndexed(withKeys: secondaryKeys.name) {
            for record in try log.records(withKey: transactionKey(id)) {
                let event = try decode(record)
                if names(event) { return event.user }
            }
            return nil
        }
        var found: String?
        try log.forEach { record in
            guard found == nil else { return }
            let event = try decode(record)
            if names(event) { found = event.user }
        }
        return found
    }

    /// The bytes of a canonical line naming a store transaction (`"transaction":"`, `"originalTransaction":"`).
    static let transactionMarkers: [[UInt8]] = [Array(#""transaction":""#.utf8), Array(#""originalTransaction":""#.utf8)]

    /// The bytes every canonical transfer line holds (`EventCodec.canonicalTypeMarker`), built once.
    static let transferMarker = EventCodec.canonicalTypeMarker(.transfer)

    /// The event a record copied out of the log holds, with the checks `decode(_: RecordView)` makes.
    package static func decode(_ record: Record) throws -> Event {
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
