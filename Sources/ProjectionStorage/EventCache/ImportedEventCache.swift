import EventStore
import SubscriptionDomain
import Synchronization

/// The event cache of an import into a log without records, gathered as the import appends:
/// each batch's events, as the import decoded them from its lines, put in the cache's form once
/// the batch is durable (on the importer's thread, while its second thread appends the next batch:
/// appending is the slower of the two), and the file written at the end for the head the import
/// reached. The first report after the import then reads the cache instead of reading, checking
/// and decoding every record of the log again.
///
/// The file is the one `EventCache.build` makes from the log (tests compare them byte for byte): a
/// record is the importer's encoding of its event, so the event it decoded is the one the record
/// decodes to (unknown fields keep their JSON text). Nothing is written, and the first rebuild
/// builds the cache from the log as before, when the log held records, when another writer's
/// records came between the import's, or when the import holds more than `eventLimit` events.
public final class ImportedEventCache: Sendable {
    /// The most events gathered in memory (about 90 bytes each): past them the import stops gathering.
    public static let eventLimit = 16_000_000

    private struct State {
        var writer: EventCache.Writer? = EventCache.Writer(events: 0)
        /// The position the next record must have.
        var next: UInt64 = 1
        /// Why nothing will be written (set once the writer is let go).
        var abandoned: String?
    }

    private let state = Mutex(State())
    private let limit: Int

    /// A cache for an import into `log`; nil when the log already holds records.
    public init?(log: EventLog, eventLimit: Int = ImportedEventCache.eventLimit) {
        guard log.head.position == 0 else { return nil }
        limit = eventLimit
    }

    /// Takes in a batch the import appended, its events and what became of it (`EventImporter.batchAppended`).
    public func add(_ batch: [ProposedRecord], _ events: [Event], _ receipt: AppendReceipt) {
        state.withLock { s in
            guard s.writer != nil else { return }
            guard events.count == batch.count else {
                return abandon(&s, "a batch of \(batch.count) records came with \(events.count) events")
            }
            for a in receipt.appended {
                guard a.position == s.next else {
                    return abandon(&s, "position \(a.position) came where \(s.next) was expected (another writer appended)")
                }
                guard a.position <= UInt64(limit) else {
                    return abandon(&s, "the import holds more than \(limit) events")
                }
                s.writer!.append(events[a.index], recorded: receipt.recorded)
                s.next += 1
            }
        }
    }

    /// Writes the cache for the head of `log` (the handle the import appended through) if every
    /// record up to it was taken in; returns the number of events written, or why none were.
    public func write(log: EventLog) throws -> Result<Int, Abandoned> {
        try state.withLock { s in
            if let why = s.abandoned { return .failure(Abandoned(reason: why)) }
            guard s.writer != nil else { return .failure(Abandoned(reason: "the cache was written already")) }
            let head = log.head
            guard head.position == s.next - 1, head.position > 0 else {
                return .failure(Abandoned(reason: "the log's head is at \(head.position), the import's last record at \(s.next - 1)"))
            }
            try EventCache.write(&s.writer!, head: head, directory: log.directory)
            s.writer = nil
            return .success(Int(head.position))
        }
    }

    /// Why an import's cache was not written.
    public struct Abandoned: Error, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    private func abandon(_ s: inout State, _ why: String) {
        s.writer = nil
        s.abandoned = why
    }
}
