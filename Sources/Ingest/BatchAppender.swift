import EventStore
import SubscriptionDomain
import Platform

/// Appends an importer's batches on a second thread (`SecondThread`), one at a time and in the
/// order given, so that reading, checking and encoding the next batch overlaps appending (framing,
/// hashing, writing, fsyncing) this one.
///
/// At most one batch is in flight: `submit` is called only after `settle` has returned that
/// batch's outcome. The log is used by the appending thread only while a batch is in flight; the
/// importer's thread touches it (or the importer's callbacks do) only once `settle` has returned.
final class BatchAppender {
    /// What became of a submitted batch.
    struct Outcome {
        /// The first line (from 1) of the input the batch's records came from.
        var firstLine: Int
        /// The records the batch held.
        var count: Int
        var result: Result<AppendReceipt, any Error>
        /// The batch's records and the events they hold (`EventImporter.batchAppended`).
        var records: [ProposedRecord]
        var events: [Event]
    }

    /// The log, and the outcome of the batch in flight once it is appended.
    private struct Appending {
        let log: EventLog
        var outcome: Outcome?
    }

    private let thread: SecondThread<Appending>
    /// Whether a batch was submitted and its outcome not yet taken.
    var busy: Bool { thread.busy }

    init(log: EventLog) { thread = SecondThread(Appending(log: log), label: "EventImporter.append") }

    /// Starts appending `batch` (whose records came from lines `firstLine` on, holding `events`,
    /// handed back with the outcome) on the second thread.
    func submit(_ batch: [ProposedRecord], events: [Event], firstLine: Int) {
        thread.submit { a in
            a.outcome = Outcome(firstLine: firstLine, count: batch.count, result: Result { try a.log.append(batch) }, records: batch, events: events)
        }
    }

    /// Waits for the batch in flight and returns its outcome; nil when none is in flight.
    func settle() -> Outcome? {
        guard thread.busy else { return nil }
        return thread.withValue { a in
            defer { a.outcome = nil }
            return a.outcome
        }
    }
}
