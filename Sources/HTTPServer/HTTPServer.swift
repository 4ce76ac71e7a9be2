import Synchronization
import Platform

/// A small, strict HTTP/1.1 server: one I/O thread (epoll) for every connection, a few worker
/// threads for the handler, responses possibly completed later from any thread.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080)) { request, responder in
///     responder.respond(HTTPResponse(status: 200, text: "ok"))
/// }
/// let address = try server.start()          // bound; print(server.listeningLine!)
/// try server.run()                          // serves until stop() (from any thread)
/// ```
public final class HTTPServer: Sendable {
    /// Handles one request on a worker thread; must call `responder.respond(_:)` exactly once,
    /// then or later, from any thread. Requests on one connection are handled one at a time, in order.
    public typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

    /// The configuration the server was made with.
    public let configuration: Configuration
    private let handler: Handler
    private let stopRequested = Atomic<Bool>(false)
    private let state = Mutex(State())

    private struct State: ~Copyable {
        enum Phase { case new, started, running, finished }
        var phase = Phase.new
        var listener: Int32?
        var address: SocketAddress?
        var completions: CompletionQueue?
    }

    /// A server that will listen as `configuration` says and answer with `handler`.
    public init(configuration: Configuration = Configuration(), handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        state.withLock { state in
            if state.phase == .started, let listener = state.listener { SocketCalls.close(listener) }
        }
    }

    /// Binds and listens (once; later calls return the same address). Connections queue in the
    /// backlog until `run()` serves them. Returns the bound address, with the real port.
    @discardableResult
    public func start() throws(HTTPServerError) -> SocketAddress {
        try state.withLock { (state) throws(HTTPServerError) -> SocketAddress in
            if let address = state.address { return address }
            guard state.phase == .new else { throw HTTPServerError(.alreadyRan) }
            do throws(SocketError) {
                let completions = try CompletionQueue()
                let listener = try SocketCalls.listen(on: SocketAddress(host: configuration.host, port: configuration.port),
                                                      backlog: configuration.backlog)
                do throws(SocketError) {
                    state.address = try SocketCalls.localAddress(of: listener)
                } catch {
                    SocketCalls.close(listener)
                    throw error
                }
                state.listener = listener
                state.completions = completions
                state.phase = .started
                return state.address ?? SocketAddress(host: configuration.host, port: configuration.port)
            } catch {
                throw HTTPServerError(.socket, error)
            }
        }
    }

    /// The bound address once `start()` succeeded.
    public var boundAddress: SocketAddress? { state.withLock { $0.address } }

    /// `{"listening":"127.0.0.1:8080"}` once started: the line a `serve` command prints when ready.
    public var listeningLine: String? { boundAddress.map { "{\"listening\":\"\($0)\"}" } }

    /// Serves on the calling thread (starting first if needed) until `stop()`; returns once
    /// requests in flight have been answered and every connection is closed. Runs once.
    public func run() throws(HTTPServerError) {
        try start()
        let taken = state.withLock { state -> (Int32, CompletionQueue)? in
            guard state.phase == .started, let listener = state.listener, let completions = state.completions else { return nil }
            state.phase = .running
            state.listener = nil
            return (listener, completions)
        }
        guard let (listener, completions) = taken else { throw HTTPServerError(.alreadyRan) }
        defer { state.withLock { $0.phase = .finished } }
        let pool = WorkerPool(threads: configuration.workerThreads, handler: handler)
        defer { pool.finish() }
        do throws(SocketError) {
            let loop: EventLoop
            do throws(SocketError) {
                loop = try EventLoop(configuration: configuration, listener: listener, completions: completions, pool: pool,
                                     stopRequested: { [self] in stopRequested.load(ordering: .acquiring) })
            } catch {
                SocketCalls.close(listener)
                throw error
            }
            try loop.run()
        } catch {
            throw HTTPServerError(.socket, error)
        }
    }

    /// Asks the server to stop: no new connections; requests in flight finish and are answered
    /// with `Connection: close`; idle connections close; then `run()` returns. Safe from any thread,
    /// any number of times, before or during `run()`.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        state.withLock { $0.completions }?.wake()
    }
}
