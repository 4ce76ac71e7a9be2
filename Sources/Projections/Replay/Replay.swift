import Foundation
import EventStore
import SubscriptionDomain
import EventCodec
import Platform

/// Full rebuild of every read model from the log: one pass per partition (users split by a hash
/// of their id, folded in parallel), then users whose events arrived out of time order are folded
/// again from their own stream in effect order, then transfers are handed to their recipients.
public enum Replay {
    /// FNV-1a of the user id: which partition folds this user.
    package static func partition(of stream: UnsafeRawBufferPointer, count: Int) -> Int {
        guard count > 1 else { return 0 }
        return partition(ofHash: FNV1a.hash(stream), count: count)
    }

    /// The partition of a user id whose FNV-1a hash is `fnv`.
    @inline(__always) static func partition(ofHash fnv: UInt64, count: Int) -> Int { Int(fnv % UInt64(count)) }

    package static func fold(log: EventLog, partition p: Int, of count: Int, options: ReplayOptions) throws -> UserTable<UserFold> {
        let decider = PlanDecider(profile: options.profile)
        var users = UserTable<UserFold>(capacity: Int(log.head.position) / 5 / count)
        var decoder = EventCodec.LineDecoder()
        try log.forEach { record in
            // One hash of the stream serves the partition test and the user lookup.
            let fnv = FNV1a.hash(record.stream)
            guard partition(ofHash: fnv, count: count) == p else { return }
            let event = try decode(record, using: &decoder)
            guard event.time <= options.asOf else { return }
            users[slot: users.slot(adding: record.stream, fnv: fnv)].apply(event, decider, options)
        }
        // Users whose events arrived out of time order: gather their events in a second pass and fold again in effect order.
        try refold(log: log, users: users.outOfOrderUsers(), decider: decider, options: options) { users[$0] = $1 }
        return users
    }

    /// The event in a record's payload; a payload that is not one is named by its log position.
    public static func decode(_ payload: UnsafeRawBufferPointer, position: UInt64) throws -> Event {
        var decoder = EventCodec.LineDecoder()
        return try decode(payload, position: position, using: &decoder)
    }

    /// The same through `decoder`, for loops over many records.
    package static func decode(_ payload: UnsafeRawBufferPointer, position: UInt64, using decoder: inout EventCodec.LineDecoder) throws -> Event {
        do { return try decoder.decode(payload) } catch {
            throw ProjectionError(position: position, reason: "not a valid event: \(error)")
        }
    }

    /// The event in a record folded by user: its `user` must be the record's stream, and its `id`
    /// the record's id (which the log keeps unique, so no user's events repeat an id).
    package static func decode(_ record: RecordView) throws -> Event {
        var decoder = EventCodec.LineDecoder()
        return try decode(record, using: &decoder)
    }

    /// The same through `decoder`, for loops over many records.
    package static func decode(_ record: RecordView, using decoder: inout EventCodec.LineDecoder) throws -> Event {
        try decode(payload: record.payload, stream: record.stream, id: record.id, position: record.position, using: &decoder)
    }

    /// The same from a record's bytes held apart from the log (a batch decoded on another thread).
    package static func decode(payload: UnsafeRawBufferPointer, stream: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer, position: UInt64,
                               using decoder: inout EventCodec.LineDecoder) throws -> Event {
        let event = try decode(payload, position: position, using: &decoder)
        guard UserIndex.isID(event.user, stream) else {
            throw ProjectionError(position: position, reason: "the event's user '\(event.user)' is not the record's stream '\(String(decoding: stream, as: UTF8.self))'")
        }
        guard UserIndex.isID(event.id, id) else {
            throw ProjectionError(position: position, reason: "the event's id '\(event.id)' is not the record's id '\(String(decoding: id, as: UTF8.self))'")
        }
        return event
    }

    /// Folds one user's timeline in effect order, up to `options.asOf`.
    package static func refold(_ timeline: UserTimeline, user: String, decider: PlanDecider, options: ReplayOptions) -> UserFold {
        var fold = UserFold(user: user)
        for entry in timeline.entries where entry.stored.event.time <= options.asOf {
            fold.apply(entry.stored.event, decider, options)
        }
        fold.outOfOrder = false
        return fold
    }

    /// Folds these users again from their streams, in effect order, gathered in one pass over the
    /// log; hands each fold to `put` as it is made. (Their events are freed together at the end:
    /// freeing each user's as it is folded left the heap too fragmented for the read models, and
    /// raised a rebuild's peak by 64 MiB.)
    static func refold(log: EventLog, users: Set<String>, decider: PlanDecider, options: ReplayOptions,
                       into put: (String, UserFold) -> Void) throws {
        guard !users.isEmpty else { return }
        refold(streams: try read(log, streams: users, transfersTo: nil).streams, users: users, decider: decider, options: options, into: put)
    }

    /// Folds these users again from their gathered events, handing each fold to `put`.
    static func refold(streams: [String: [StoredEvent]], users: Set<String>, decider: PlanDecider, options: ReplayOptions,
                       into put: (String, UserFold) -> Void) {
        for user in users {
            put(user, refold(UserTimeline(streams[user] ?? []), user: user, decider: decider, options: options))
        }
    }
}
