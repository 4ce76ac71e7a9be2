import Synchronization
import Platform

/// The I/O thread: one epoll over the listening socket, the wake-up eventfd and every connection.
/// It reads, parses, hands complete requests to the worker pool, writes responses, and enforces
/// the deadlines. Nothing here blocks except the epoll wait, so idle or slow clients cost only
/// their buffers.
final class EventLoop {
    static let listenerToken: UInt64 = 0
    static let wakeupToken: UInt64 = 1
    /// While a request is in flight, reading pauses once this many bytes of later requests wait.
    static let maxPipelinedBytes = 65_536
    /// A lingering connection is closed after discarding this many bytes.
    static let maxLingerBytes = 1_048_576

    let configuration: HTTPServer.Configuration
    let completions: CompletionQueue
    let pool: WorkerPool
    let stopRequested: @Sendable () -> Bool
    let poll: Int32
    var listener: Int32?
    var connections: [UInt64: Connection] = [:]
    var lingering = 0
    var nextID: UInt64 = 2
    var now: UInt64
    var nextSweep: UInt64
    /// True once `log` was called since the last `requestLogFlush`.
    var loggedSinceFlush = false
    var acceptPausedUntil: UInt64?
    var stopping = false
    var stopDeadline: UInt64 = 0
    var scratch = [UInt8](repeating: 0, count: 65_536)
    var events = [PollEvent](repeating: PollEvent(), count: 256)

    let idleNanoseconds: UInt64
    let requestNanoseconds: UInt64
    let lingerNanoseconds: UInt64
    let tickNanoseconds: UInt64

    init(configuration: HTTPServer.Configuration, listener: Int32, completions: CompletionQueue,
         pool: WorkerPool, stopRequested: @escaping @Sendable () -> Bool) throws(SocketError) {
        self.configuration = configuration
        self.completions = completions
        self.pool = pool
        self.stopRequested = stopRequested
        self.listener = listener
        poll = try SocketCalls.makeEventPoll()
        idleNanoseconds = MonotonicClock.nanoseconds(configuration.idleTimeout)
        requestNanoseconds = MonotonicClock.nanoseconds(configuration.requestTimeout)
        lingerNanoseconds = MonotonicClock.nanoseconds(configuration.lingerTimeout)
        // Deadlines are checked a few times per shortest timeout: late by at most a quarter.
        tickNanoseconds = min(max(min(idleNanoseconds, requestNanoseconds, lingerNanoseconds) / 4, 5_000_000), 250_000_000)
        now = MonotonicClock.now()
        nextSweep = now &+ tickNanoseconds
        do {
            try SocketCalls.add(listener, to: poll, interest: .readable, token: Self.listenerToken)
            try SocketCalls.add(completions.wakeup, to: poll, interest: .readable, token: Self.wakeupToken)
        } catch {
            SocketCalls.close(poll)
            throw error
        }
    }

    /// Serves until a stop is requested and every connection has finished (or the grace period
    /// ran out). Closes the listener, every connection and the poll before returning.
    func run() throws(SocketError) {
        defer {
            flushRequestLog()
            for connection in Array(connections.values) { close(connection) }
            if let listener { SocketCalls.close(listener) }
            listener = nil
            SocketCalls.close(poll)
        }
        while true {
            now = MonotonicClock.now()
            if !stopping && stopRequested() { beginStop() }
            if stopping && (connections.isEmpty || now >= stopDeadline) { return }
            let count = try SocketCalls.wait(poll: poll, into: &events, timeoutMilliseconds: waitMilliseconds())
            now = MonotonicClock.now()
            for index in 0..<count {
                let event = events[index]
                switch event.token {
                case Self.listenerToken: acceptConnections()
                case Self.wakeupToken: deliverResponses()
                default:
                    guard let connection = connections[event.token] else { continue }
                    handle(event, on: connection)
                }
            }
            if now >= nextSweep {
                sweep()
                nextSweep = now &+ tickNanoseconds
            }
            flushRequestLog()
        }
    }

    /// Tells the request logger that a round of readiness ended, if it logged anything in it.
    private func flushRequestLog() {
        guard loggedSinceFlush else { return }
        loggedSinceFlush = false
        configuration.requestLogFlush?()
    }

    private func waitMilliseconds() -> Int32 {
        var until = nextSweep
        if stopping { until = min(until, stopDeadline) }
        guard until > now else { return 0 }
        return Int32(min((until - now + 999_999) / 1_000_000, 1_000))
    }

    /// Accepts what is waiting; past `maxConnections` a connection is answered 503 and closed.
    private func acceptConnections() {
        guard let listener else { return }
        for _ in 0..<64 {
            let descriptor: Int32
            do {
                guard let accepted = try SocketCalls.accept(listener) else { return }
                descriptor = accepted
            } catch {
                // Out of descriptors or memory: stop asking for a moment rather than spin.
                SocketCalls.remove(listener, from: poll)
                acceptPausedUntil = now &+ 100_000_000
                return
            }
            // TCP_NODELAY only speeds small responses; a socket without it still works.
            _ = Result { () throws(SocketError) in try SocketCalls.setNoDelay(descriptor) }
            let connection = Connection(id: nextID, descriptor: descriptor, limits: configuration.limits, now: now)
            nextID += 1
            do {
                try SocketCalls.add(descriptor, to: poll, interest: .readable, token: connection.id)
            } catch {
                SocketCalls.close(descriptor)
                continue
            }
            connections[connection.id] = connection
            if connections.count - lingering > configuration.maxConnections {
                refuse(connection, status: 503, check: nil)
            }
        }
    }

    /// Resumes accepting after a pause for lack of descriptors.
    func resumeAccepting() {
        guard let listener, let until = acceptPausedUntil, now >= until else { return }
        acceptPausedUntil = nil
        do {
            try SocketCalls.add(listener, to: poll, interest: .readable, token: Self.listenerToken)
        } catch {
            acceptPausedUntil = now &+ 100_000_000
        }
    }
}
