import EventStore
import SubscriptionDomain
import EventCodec

extension Replay {
    /// The secondary key under which the records filed for app user id `id` under another id are
    /// found (`AppUserAlias`: RevenueCat's identified id of an anonymous subscriber).
    public static func aliasKey(_ id: String) -> String { "alias:" + id }

    /// The other streams that hold events which arrived under app user id `user` (RevenueCat's
    /// identified id, filed under the anonymous id the ledger knew first), sorted; through the
    /// log's alias index, each record read and checked where the index points. A log opened
    /// without the ledger's secondary keys is read whole (and any failed read throws).
    public static func aliasedStreams(of user: String, in log: EventLog) throws -> [String] {
        var streams = Set<String>()
        func take(_ event: Event) {
            if event.user != user, AppUserAlias.appUserID(of: event) == user { streams.insert(event.user) }
        }
        if log.isIndexed(withKeys: secondaryKeys.name) {
            for record in try log.records(withKey: aliasKey(user)) { take(try decode(record)) }
        } else {
            try AppUserAlias.marker.withUnsafeBytes { needle in
                try log.forEach { record in
                    guard EventCodec.line(record.payload, holds: needle) else { return }
                    take(try decode(record))
                }
            }
        }
        return streams.sorted()
    }

    /// The users whose answers a record can change: its stream, the user a `transfer` names, and
    /// the app user id an aliased event arrived under (what a cache of per-user answers drops
    /// when the record is appended). Only payloads holding those canonical markers are decoded.
    public static func affectedUsers(stream: String, payload: [UInt8]) -> [String] {
        var users = [stream]
        let named = payload.withUnsafeBytes { p in
            transferMarker.withUnsafeBytes { EventCodec.line(p, holds: $0) } || AppUserAlias.marker.withUnsafeBytes { EventCodec.line(p, holds: $0) }
        }
        // Payloads come from the import door, which decoded them; one that is not an event changes
        // no other user's answer (a read of its own user fails naming it).
        guard named, let event = try? EventCodec.decode(payload) else { return users }
        if case .transfer(let t) = event.data { users.append(t.to) }
        if let alias = AppUserAlias.appUserID(of: event) { users.append(alias) }
        return users
    }
}
