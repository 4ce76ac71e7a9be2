import Dispatch
import SubscriptionDomain

extension EventCache {
    /// Hands decoded events to the cache's `Writer` on a second thread, a batch at a time, so that
    /// reading, checking and decoding the next batch of the log overlaps encoding this one.
    ///
    /// At most one batch is in flight: `submit` is called only after `settle` has returned. The
    /// writer is used by the second thread only while a batch is in flight, and by the caller only
    /// once `settle` has returned; the queue's hand-off and the semaphore order those accesses,
    /// which is why this box may cross threads (`@unchecked Sendable`).
    final class WriterPipe: @unchecked Sendable {
        /// An event and the time the log recorded it (milliseconds).
        typealias Item = (event: Event, recorded: Int64)

        private var writer: Writer
        private let queue = DispatchQueue(label: "EventCache.write")
        private let done = DispatchSemaphore(value: 0)
        private var busy = false

        init(_ writer: Writer) { self.writer = writer }

        /// Starts appending `batch` to the writer on the second thread.
        func submit(_ batch: [Item]) {
            precondition(!busy, "a batch is already in flight")
            busy = true
            queue.async {
                for item in batch { self.writer.append(item.event, recorded: item.recorded) }
                self.done.signal()
            }
        }

        /// Waits for the batch in flight, if any (and for its block to end, so that nothing of it
        /// is left on the second thread).
        func settle() {
            guard busy else { return }
            done.wait()
            queue.sync {}
            busy = false
        }

        /// The writer, taken out once every batch is settled.
        func finished() -> Writer {
            settle()
            defer { writer = Writer(events: 0) }
            return writer
        }
    }
}
