import EventStore
import Parquet
import SubscriptionDomain
import EventCodec

/// The `events` table's rows: one per log record, from the record's frame (position, version,
/// recorded) and its event as the ledger decodes it; `data` is the event's data object as the
/// canonical encoder writes it (what `export` prints under `"data"`).
public struct EventRows {
    private var decoder = EventCodec.LineDecoder()
    private var data: [UInt8] = []

    public init() {}

    /// Replaces `row` with the row of `record`.
    public mutating func row(_ record: RecordView, into row: inout [ParquetValue]) throws(TableError) {
        let event: Event
        do { event = try decoder.decode(record.payload) } catch {
            throw TableError(position: record.position, "not a valid event: \(error)")
        }
        let fields = event.allFields
        data.removeAll(keepingCapacity: true)
        Self.appendData(fields, unknown: event.extra.unknown, to: &data)
        row.removeAll(keepingCapacity: true)
        row.append(.int64(Int64(bitPattern: record.position)))
        row.append(.string(event.id))
        row.append(.string(event.type.rawValue))
        row.append(.string(event.user))
        row.append(TableCell.time(event.time))
        row.append(TableCell.time(Timestamp(milliseconds: record.recorded)))
        row.append(.int64(Int64(bitPattern: record.version)))
        row.append(TableCell.text(fields.product))
        row.append(TableCell.text(fields.transaction))
        row.append(TableCell.money(fields.price))
        row.append(TableCell.text(fields.currency))
        row.append(.string(String(decoding: data, as: UTF8.self)))
    }

    /// The data object: the catalog's fields in its order, then the unknown ones verbatim, as
    /// `EventCodec.encode` writes it.
    static func appendData(_ fields: EventFields, unknown: [EventData.ExtraField], to out: inout [UInt8]) {
        out.append(0x7B)
        var first = true
        for field in EventField.allCases {
            guard let value = fields[field] else { continue }
            if !first { out.append(0x2C) }
            first = false
            EventCodec.appendString(field.rawValue, to: &out)
            out.append(0x3A)
            value.appendJSON(to: &out)
        }
        for x in unknown {
            if !first { out.append(0x2C) }
            first = false
            EventCodec.appendString(x.name, to: &out)
            out.append(0x3A)
            out.append(contentsOf: x.rawJSON.utf8)
        }
        out.append(0x7D)
    }
}
