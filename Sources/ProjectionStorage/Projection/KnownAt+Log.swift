import Projections
import EventStore
import SubscriptionDomain

extension KnownAt {
    /// The last position of the log in `directory` that was recorded by `instant` with every
    /// record before it (0 when the first record is later). Reads the records' frames from the
    /// first through the first one recorded after `instant` (the whole log when there is none).
    /// A clock set back can stamp a later record earlier than one before it: such a record, after
    /// the first one recorded after `instant`, is not counted, since the log did not hold it then.
    public static func position(directory: String, at instant: Timestamp) throws -> UInt64 {
        let log = try ProjectionStore.openForScans(directory)
        var last: UInt64 = 0
        do {
            try log.forEach { record in
                guard Timestamp(milliseconds: record.recorded) <= instant else { throw Later() }
                last = record.position
            }
        } catch is Later {}
        return last
    }

    /// Ends the scan at the first record recorded after the instant.
    private struct Later: Error {}

    /// The records after `position` through `through` whose event took effect at or before `effectiveBy`:
    /// the late records that can change a report as of that instant, in log order.
    public static func lateRecords(directory: String, after position: UInt64, through: UInt64, effectiveBy: Timestamp) throws -> [LateRecord] {
        guard through > position else { return [] }
        let log = try ProjectionStore.openForScans(directory, through: through)
        var out: [LateRecord] = []
        try log.forEach(from: position + 1, through: through) { record in
            let e = try Replay.decode(record)
            guard e.time <= effectiveBy else { return }
            out.append(LateRecord(position: record.position, id: e.id, type: e.type.rawValue, user: e.user, time: e.time,
                                  recorded: Timestamp(milliseconds: record.recorded)))
        }
        return out
    }
}
