import Synchronization
import Platform

/// A response handed back to the I/O thread for a connection.
struct Completion: Sendable {
    var connection: UInt64
    var response: HTTPResponse
}

/// Where responders from any thread leave responses for the I/O thread, which an eventfd wakes.
/// Responders keep it alive, so the eventfd stays valid for as long as anyone may signal it.
final class CompletionQueue: Sendable {
    /// The eventfd the event loop polls.
    let wakeup: Int32
    private let pending = Mutex<[Completion]>([])

    init() throws(SocketError) { wakeup = try SocketCalls.makeWakeup() }

    deinit { SocketCalls.close(wakeup) }

    /// Queues a response; wakes the loop when the queue was empty (else a wake-up is already due).
    func post(_ completion: Completion) {
        let first = pending.withLock { queue in
            queue.append(completion)
            return queue.count == 1
        }
        if first { SocketCalls.signal(wakeup: wakeup) }
    }

    /// Wakes the loop without a response (to notice a stop request).
    func wake() { SocketCalls.signal(wakeup: wakeup) }

    /// Takes every queued response. The wake-up is drained first, so a response posted after this
    /// call signals again.
    func takeAll() -> [Completion] {
        SocketCalls.drain(wakeup: wakeup)
        return pending.withLock { queue in
            let all = queue
            queue.removeAll(keepingCapacity: true)
            return all
        }
    }
}
