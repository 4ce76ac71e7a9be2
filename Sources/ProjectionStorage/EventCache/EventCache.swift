import Projections
import EventStore
import SubscriptionDomain
import EventCodec
import Platform

/// The log's events in a binary form, kept next to the projections so that a full rebuild (a new
/// profile, a rule diff, a new code version) does not parse every JSON payload again. It is a
/// cache of the log, like a projection: built by one checked pass that decodes every record,
/// valid only for the log head it was built at (position and hash-chain value), and refused
/// whole on any damage (CRC32C of the file), never repaired. The log stays the record an
/// auditor checks; `verify`, `state` and `history` never read the cache.
///
/// Events are stored user by user, each user's in effect order (by time, equal times in log
/// order), which is the order a fold takes them: a rebuild reads each user's events in one run,
/// with no lookup per event and no second pass for events that arrived late.
///
/// File: magic `LDGEVTS\n`, the code version, the layout digest (`layoutDigest`), the head's
/// position (8 bytes) and hash (32 bytes),
/// the number of events, the shared strings (products, currencies, contexts...: their count,
/// then each), the number of users, per event type code the number of events the users with an
/// event of that type hold (a census without reading the users); then per user, in the order they first came: the id, the
/// number of events, the types of their events (a varint of bits `1 << cacheCode`, so that a
/// reader passes over users without the types it needs unread; checked against the events when
/// they are read), the byte length of what follows, and per event its log position and body
/// (EventCache+Body.swift); and the CRC32C of all that in the last 4 bytes.
enum EventCache {
    /// Bump when the file's structure changes: older caches are rebuilt. (A change to how one event
    /// is written changes `layoutDigest`, which needs no bump.)
    /// 2: events grouped by user in effect order (1 kept them in log order). 3: the layout digest;
    /// enums stored by frozen codes (EventCache+Codes.swift). 4: the typed event model: data
    /// fields by their frozen codes, off-type fields stored as the type's are, unknown fields at bit 31.
    /// 5: each user's entry gives the types of their events. 6: the header gives, per type, the
    /// events of the users with one of that type.
    static let codeVersion = 6

    /// An event type's bit in a user's types: `1 << cacheCode`.
    static func typeBit(_ type: EventType) -> UInt64 { 1 << UInt64(type.cacheCode) }

    /// The bits of the types `wanted` (a set of types to read users by, `Reader.nextUser(where:types:)`).
    static func typeBits(_ wanted: some Sequence<EventType>) -> UInt64 { wanted.reduce(0) { $0 | typeBit($1) } }

    /// The types to read users by for a change of profile: those with an event it reaches, and
    /// the senders of transfers (their recipients are walked with what they handed over).
    static func typeBits(readFor change: ProfileChange) -> UInt64 { typeBits(change.eventTypes.union([.transfer])) }

    /// What the event writer makes of the rules corpus (`RulesCorpus`): any change to an event's
    /// stored form (a field, a code, an order) changes it, and a cache written with another digest
    /// is not read.
    static let layoutDigest: String = {
        let events = RulesCorpus.events(.handz) + RulesCorpus.events(.howru)
        var w = Writer(events: events.count)
        for e in events { w.writeBody(e, recorded: 1_767_225_600_000) }
        var h = SHA256()
        h.update(w.body.bytes)
        return String(h.finalize().description.prefix(16))
    }()
    static let magic = Array("LDGEVTS\n".utf8)

    /// Where the cache of the log in `logDirectory` lives.
    static func path(_ logDirectory: String) -> String { logDirectory + "/projections/events.cache" }

    /// Writes the cache of `log` up to its head through one checked pass. A record that is not a
    /// valid event throws `ProjectionError` (the first such record's) and leaves any older cache as
    /// it was. The events' binary form is held in memory until all are read (about 45 bytes per event).
    ///
    /// With `pipelined`, the events of a batch of records are encoded on a second thread
    /// (`SecondThread`) while the next batch is read: the same file, on two cores. Reading,
    /// checking and decoding the log is the larger part, so one record in three (by position) is
    /// handed over undecoded (`RawRecords`) and decoded there, in its place among the others.
    static func build(_ log: EventLog, pipelined: Bool = true) throws {
        let head = log.head
        let encoder = SecondThread(Encoding(writer: Writer(events: Int(head.position))), label: "EventCache.write")
        // Whatever happens, nothing of the writer is left on the second thread when this returns.
        defer { encoder.settle() }
        let batchSize = pipelined ? 4_096 : 1
        /// Whether the record at `position` is decoded on the second thread.
        func decodedThere(_ position: UInt64) -> Bool { pipelined && position % 3 == 0 }
        var batch: [(event: Event, recorded: Int64)] = []
        batch.reserveCapacity(batchSize)
        var raw = RawRecords()
        var first: UInt64 = 1   // the batch's first position
        var written: UInt64 = 0
        var decoder = EventCodec.LineDecoder()
        /// Throws what the second thread met decoding (a record before any read since).
        func secondThreadFailure() throws {
            try encoder.withValue { (e: inout Encoding) throws in if let failure = e.failure { throw failure } }
        }
        func hand() throws {
            try secondThreadFailure()
            encoder.submit { [batch, raw, first] e in
                var next = 0            // the next event decoded on the first thread
                var position = first    // the position of the next record to append
                do {
                    try raw.forEach { at, recorded, payload, stream, id in
                        // The events decoded on the first thread that come before this record, then this record.
                        while position < at {
                            e.writer.append(batch[next].event, recorded: batch[next].recorded)
                            next += 1
                            position += 1
                        }
                        let event = try Replay.decode(payload: payload, stream: stream, id: id, position: at, using: &e.decoder)
                        e.writer.append(event, recorded: recorded)
                        position += 1
                    }
                    for item in batch[next...] { e.writer.append(item.event, recorded: item.recorded) }
                } catch { e.failure = error }
            }
            batch.removeAll(keepingCapacity: true)
            raw.removeAll()
            first = written + 1
            if !pipelined { encoder.settle() }
        }
        do {
            try log.forEach { record in
                guard record.position <= head.position else { return }
                written += 1
                guard record.position == written else {
                    throw ProjectionError(position: record.position, reason: "expected log position \(written) (positions must run from 1 without gaps)")
                }
                if decodedThere(record.position) {
                    raw.append(record)
                } else {
                    batch.append((try Replay.decode(record, using: &decoder), record.recorded))
                }
                if batch.count + raw.count >= batchSize { try hand() }
            }
            if !batch.isEmpty || !raw.isEmpty { try hand() }
            try secondThreadFailure()
        } catch {
            // A batch decoded on the second thread holds records before any read since: its failure
            // comes first; then those of this batch left for it, before the record that failed here.
            try secondThreadFailure()
            try raw.forEach { position, _, payload, stream, id in
                _ = try Replay.decode(payload: payload, stream: stream, id: id, position: position, using: &decoder)
            }
            throw error
        }
        guard written == head.position else {
            throw ProjectionError(position: written, reason: "the log ended at position \(written), before its head \(head.position)")
        }
        try encoder.withValue { e in try write(&e.writer, head: head, directory: log.directory) }
    }

    /// Writes the cache of the log in `directory` at `head` from `writer`, which holds every
    /// event of the log through the head, appended in log order.
    static func write(_ writer: inout Writer, head: LogHead, directory: String) throws {
        var file = try ChecksummedReplacement(path: path(directory))
        var out = ProjectionWriter()
        out.raw(magic)
        out.count(codeVersion)
        out.string(layoutDigest)
        out.int64(Int64(bitPattern: head.position))
        out.raw(head.hash.bytes)
        out.count(Int(head.position))
        try writer.write(into: &out, file: &file)
        try file.commit(&out)
    }

    /// What the second thread works on: the writer, its own decoder, and the first failure it met.
    struct Encoding {
        var writer: Writer
        var decoder = EventCodec.LineDecoder()
        var failure: (any Error)?
    }

    /// Records kept as bytes (payload, stream, id) with their positions and record times, to be
    /// decoded on the second thread: the log's views are only valid while it reads.
    struct RawRecords: Sendable {
        private var bytes: [UInt8] = []
        /// Per record: its position, when it was recorded, and where its payload, stream and id end in `bytes`.
        private var records: [(position: UInt64, recorded: Int64, payloadEnd: Int, streamEnd: Int, idEnd: Int)] = []

        var count: Int { records.count }
        var isEmpty: Bool { records.isEmpty }

        mutating func append(_ record: RecordView) {
            bytes.append(contentsOf: record.payload)
            let payloadEnd = bytes.count
            bytes.append(contentsOf: record.stream)
            let streamEnd = bytes.count
            bytes.append(contentsOf: record.id)
            records.append((record.position, record.recorded, payloadEnd, streamEnd, bytes.count))
        }

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
        }

        /// Each record in order: position, recorded, payload, stream, id.
        func forEach(_ body: (UInt64, Int64, UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) rethrows {
            try bytes.withUnsafeBytes { all in
                var start = 0
                for r in records {
                    try body(r.position, r.recorded, UnsafeRawBufferPointer(rebasing: all[start..<r.payloadEnd]),
                             UnsafeRawBufferPointer(rebasing: all[r.payloadEnd..<r.streamEnd]), UnsafeRawBufferPointer(rebasing: all[r.streamEnd..<r.idEnd]))
                    start = r.idEnd
                }
            }
        }
    }

    /// A reader of the cache of the log in `logDirectory`, if there is one of this code version
    /// built at exactly `head`; nil otherwise (then it must be built again).
    static func reader(_ logDirectory: String, head: LogHead) -> Reader? {
        guard let source = try? DurableFile.Source(path: path(logDirectory)),
              let reader = try? Reader(source: source), reader.head == head
        else { return nil }
        return reader
    }
}
