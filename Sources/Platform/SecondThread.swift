import Dispatch

/// A value worked on by a second thread, one piece of work at a time, so that the caller's next
/// step overlaps it (the import appends a batch while it reads the next; the event cache encodes
/// a batch while it decodes the next).
///
/// At most one piece of work is in flight: `submit` is called only once `settle` has returned.
/// The value is touched by the second thread only while work is in flight, and by the caller
/// (`withValue`) only once it is settled; the queue's hand-off and the semaphore order those
/// accesses, which is why this box may cross threads (`@unchecked Sendable`) whatever the value
/// (an `EventLog`, a one-thread handle, among them).
public final class SecondThread<Value>: @unchecked Sendable {
    private var value: Value
    private let queue: DispatchQueue
    private let done = DispatchSemaphore(value: 0)
    /// Whether work was submitted and is not settled yet.
    public private(set) var busy = false

    /// `value`, worked on by a serial queue named `label`.
    public init(_ value: Value, label: String) {
        self.value = value
        queue = DispatchQueue(label: label)
    }

    /// Starts `work` on the value on the second thread.
    public func submit(_ work: @escaping @Sendable (inout Value) -> Void) {
        precondition(!busy, "work is already in flight")
        busy = true
        queue.async {
            work(&self.value)
            self.done.signal()
        }
    }

    /// Waits for the work in flight, if any. The block that signalled still holds this box, and
    /// through it the value, until it returns: it is waited for too, so that the value's last
    /// reference (and, for a log writer, the save of its indexes when it closes) never falls to
    /// the second thread after the caller went on.
    public func settle() {
        guard busy else { return }
        done.wait()
        queue.sync {}
        busy = false
    }

    /// `body` on the value, once the work in flight is settled.
    public func withValue<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        settle()
        return try body(&value)
    }
}
