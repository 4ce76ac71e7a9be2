import EventStore
import SubscriptionDomain

/// The log's events in a binary form, kept next to the projections so that a full rebuild (a new
/// profile, a rule diff, a new code version) does not parse every JSON payload again. It is a
/// cache of the log, like a projection: built by one checked pass that decodes every record,
/// valid only for the log head it was built at (position and hash-chain value), and refused
/// whole on any damage (CRC32C of the file), never repaired. The log stays the record an
/// auditor checks; `verify`, `state` and `history` never read the cache.
///
/// File: magic `LDGEVTS\n`, the code version, the head's position (8 bytes) and hash (32 bytes),
/// the number of events, then per event in log order: the strings it uses for the first time,
/// the number of its user among those strings, its length, and its body (EventCache+Body.swift);
/// and the CRC32C of all that in the last 4 bytes.
enum EventCache {
    /// Bump when the binary form of an event or the catalog changes: older caches are rebuilt.
    static let codeVersion = 1
    static let magic = Array("LDGEVTS\n".utf8)

    /// Where the cache of the log in `logDirectory` lives.
    static func path(_ logDirectory: String) -> String { logDirectory + "/projections/events.cache" }

    /// Writes the cache of `log` up to its head through one checked pass. A record that is not a
    /// valid event throws `ProjectionError` and leaves any older cache as it was.
    static func build(_ log: EventLog) throws {
        let head = log.head
        var file = try ChecksummedReplacement(path: path(log.directory))
        var writer = Writer()
        writer.out.raw(magic)
        writer.out.count(codeVersion)
        writer.out.int64(Int64(bitPattern: head.position))
        writer.out.raw(head.hash.bytes)
        writer.out.count(Int(head.position))
        var written: UInt64 = 0
        try log.forEach { record in
            guard record.position <= head.position else { return }
            written += 1
            guard record.position == written else {
                throw ProjectionError(position: record.position, reason: "expected log position \(written) (positions must run from 1 without gaps)")
            }
            writer.append(try Replay.decode(record), recorded: record.recorded)
            if writer.out.bytes.count >= 1 << 20 { try file.flush(&writer.out) }
        }
        guard written == head.position else {
            throw ProjectionError(position: written, reason: "the log ended at position \(written), before its head \(head.position)")
        }
        try file.commit(&writer.out)
    }

    /// A reader of the cache of the log in `logDirectory`, if there is one of this code version
    /// built at exactly `head`; nil otherwise (then it must be built again).
    static func reader(_ logDirectory: String, head: LogHead) -> Reader? {
        guard let source = try? DurableFile.Source(path: path(logDirectory)),
              let reader = try? Reader(source: source),
              reader.codeVersion == codeVersion, reader.head == head
        else { return nil }
        return reader
    }
}
