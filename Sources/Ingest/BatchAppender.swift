import Dispatch
import EventStore

/// Appends an importer's batches on a second thread, one at a time and in the order given, so
/// that reading, checking and encoding the next batch overlaps appending (framing, hashing,
/// writing, fsyncing) this one.
///
/// At most one batch is in flight: `submit` is called only after `settle` has returned that
/// batch's outcome. The log is used by the appending thread only while a batch is in flight; the
/// importer's thread touches it (or the importer's callbacks do) only once `settle` has returned.
/// The queue's hand-off and the semaphore order those accesses, which is why this box may cross
/// threads (`@unchecked Sendable`) although `EventLog` is a one-thread handle.
final class BatchAppender: @unchecked Sendable {
    /// What became of a submitted batch.
    struct Outcome {
        /// The first line (from 1) of the input the batch's records came from.
        var firstLine: Int
        /// The records the batch held.
        var count: Int
        var result: Result<AppendReceipt, any Error>
    }

    private let log: EventLog
    private let queue = DispatchQueue(label: "EventImporter.append")
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Outcome?
    /// Whether a batch was submitted and its outcome not yet taken.
    private(set) var busy = false

    init(log: EventLog) { self.log = log }

    /// Starts appending `batch` (whose records came from lines `firstLine` on) on the second thread.
    func submit(_ batch: [ProposedRecord], firstLine: Int) {
        precondition(!busy, "a batch is already in flight")
        busy = true
        queue.async {
            self.outcome = Outcome(firstLine: firstLine, count: batch.count, result: Result { try self.log.append(batch) })
            self.done.signal()
        }
    }

    /// Waits for the batch in flight and returns its outcome; nil when none is in flight.
    func settle() -> Outcome? {
        guard busy else { return nil }
        done.wait()
        // The block that signalled still holds this appender, and through it the log, until it
        // returns: wait for it, so that the log's last reference, and the save of its indexes
        // when a writer closes, never falls to the appending thread after the import returned.
        queue.sync {}
        busy = false
        defer { outcome = nil }
        return outcome
    }
}
