import Foundation
import Synchronization

/// A few threads that run the handler, so a slow handler never stalls the I/O thread.
final class WorkerPool: Sendable {
    private struct Job: Sendable {
        var request: HTTPRequest
        var responder: HTTPResponder
    }

    /// A first-in first-out list of jobs; nil entries tell one worker to finish.
    private struct Queue: ~Copyable {
        var items: [Job?] = []
        var head = 0

        mutating func push(_ job: Job?) { items.append(job) }

        mutating func pop() -> Job?? {
            guard head < items.count else { return .none }
            let job = items[head]
            head += 1
            if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
            return .some(job)
        }
    }

    private let queue = Mutex(Queue())
    private let ready = DispatchSemaphore(value: 0)
    private let threads: Int

    /// Starts `threads` workers (at least one) calling `handler`.
    init(threads: Int, handler: @escaping HTTPServer.Handler) {
        self.threads = max(1, threads)
        for number in 0..<self.threads {
            let thread = Thread { [self] in self.work(handler) }
            thread.name = "http-worker-\(number)"
            thread.start()
        }
    }

    /// Queues a request for the next free worker.
    func submit(_ request: HTTPRequest, _ responder: HTTPResponder) {
        queue.withLock { $0.push(Job(request: request, responder: responder)) }
        ready.signal()
    }

    /// Lets each worker finish once the jobs queued before this call are done.
    func finish() {
        for _ in 0..<threads {
            queue.withLock { $0.push(nil) }
            ready.signal()
        }
    }

    private func work(_ handler: HTTPServer.Handler) {
        while true {
            ready.wait()
            guard let next = queue.withLock({ $0.pop() }) else { continue }
            guard let job = next else { return }
            handler(job.request, job.responder)
        }
    }
}
