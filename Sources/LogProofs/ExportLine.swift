import EventStore
import Projections
import SubscriptionDomain
import EventCodec

/// The bytes of a record's line in `export` (without its newline): the leaf data of the log's
/// Merkle tree. `export` prints these very bytes, so anyone holding an export recomputes the tree.
public enum ExportLine {
    /// Appends the export line of the record at `position` (its payload decoded as an event,
    /// encoded again with position, version and recorded time) to `out`; returns the event's user.
    @discardableResult
    public static func encode(payload: UnsafeRawBufferPointer, position: UInt64, version: UInt64, recorded: Int64,
                              into out: inout [UInt8]) throws -> String {
        let event = try Replay.decode(payload, position: position)
        EventCodec.encode(event, metadata: .init(position: position, version: version, recorded: Timestamp(milliseconds: recorded)), into: &out)
        return event.user
    }

    /// Appends a record's export line to `out`; returns the event's user.
    @discardableResult
    public static func encode(_ record: RecordView, into out: inout [UInt8]) throws -> String {
        try encode(payload: record.payload, position: record.position, version: record.version, recorded: record.recorded, into: &out)
    }

    /// Appends a record's export line to `out`; returns the event's user.
    @discardableResult
    public static func encode(_ record: Record, into out: inout [UInt8]) throws -> String {
        try record.payload.withUnsafeBytes {
            try encode(payload: $0, position: record.position, version: record.version, recorded: record.recorded, into: &out)
        }
    }

    /// The user an export line names, or nil if the line is not an event: what an auditor's
    /// checker asks of every line in a user's proof.
    public static func user(ofLine line: String) -> String? {
        do {
            return try EventCodec.decode(line).user
        } catch {
            return nil
        }
    }
}
