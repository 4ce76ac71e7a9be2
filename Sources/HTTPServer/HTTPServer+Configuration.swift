extension HTTPServer {
    /// Where to listen and the limits that keep slow, idle or greedy clients from costing much.
    public struct Configuration: Sendable {
        /// A numeric IPv4 or IPv6 address (or `localhost`); `127.0.0.1` by default.
        public var host: String
        /// The port; 0 lets the kernel pick a free one (read it from `start()`).
        public var port: UInt16
        /// Connections served at once; one more is accepted, answered 503 and closed.
        public var maxConnections: Int
        /// From a request's first byte to its last (head and body): past it, 408 and close.
        public var requestTimeout: Duration
        /// How long a connection may sit between requests (or not read a waiting response)
        /// before it is closed.
        public var idleTimeout: Duration
        /// After a closing response, how long unread client bytes are drained before closing
        /// (so the response is not lost to a TCP reset).
        public var lingerTimeout: Duration
        /// After `stop()`, how long requests in flight may take before their connections are closed.
        public var shutdownGracePeriod: Duration
        /// Header block, header count and body limits.
        public var limits: HTTPRequestLimits
        /// False closes every connection after one response.
        public var keepAlive: Bool
        /// Threads running the handler.
        public var workerThreads: Int
        /// The listen(2) backlog.
        public var backlog: Int32
        /// Called on the I/O thread once per answered request (keep it quick); nil logs nothing.
        public var requestLog: (@Sendable (HTTPRequestLog) -> Void)?
        /// Called on the I/O thread after each round of readiness in which `requestLog` was
        /// called, and when the server stops: a logger that gathers lines writes them here, one
        /// write for all the requests of a round instead of one each.
        public var requestLogFlush: (@Sendable () -> Void)? = nil
        /// Tried on the I/O thread before a request goes to the workers: an answer that can be
        /// given at once without blocking (a kept answer), or nil to hand the request to the
        /// handler. It runs between every connection's reads and writes, so it must be quick.
        /// Saves the two thread hand-offs (and their wake-ups) of a worker's answer.
        public var quickAnswer: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil

        /// The defaults: 127.0.0.1, a free port, 512 connections, 10 s to send a request,
        /// 10 s idle, 2 s linger, 30 s grace, 16 KiB / 100 headers / 1 MiB body, keep-alive on,
        /// 2 handler threads.
        public init(host: String = "127.0.0.1", port: UInt16 = 0, maxConnections: Int = 512,
                    requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(10),
                    lingerTimeout: Duration = .seconds(2), shutdownGracePeriod: Duration = .seconds(30),
                    limits: HTTPRequestLimits = HTTPRequestLimits(), keepAlive: Bool = true, workerThreads: Int = 2,
                    backlog: Int32 = 511, requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil) {
            self.host = host
            self.port = port
            self.maxConnections = maxConnections
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
            self.lingerTimeout = lingerTimeout
            self.shutdownGracePeriod = shutdownGracePeriod
            self.limits = limits
            self.keepAlive = keepAlive
            self.workerThreads = workerThreads
            self.backlog = backlog
            self.requestLog = requestLog
        }
    }
}
