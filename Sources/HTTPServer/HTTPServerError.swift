import Platform
/// A misuse of `HTTPServer`'s life cycle, or a socket call that failed while starting or serving.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// `run()` was called while running or after it returned: a server runs once.
        case alreadyRan
        /// A socket call failed; `socketError` says which.
        case socket
    }

    /// What went wrong.
    public let code: Code
    /// The failed call, for `.socket`.
    public let socketError: SocketError?

    init(_ code: Code, _ socketError: SocketError? = nil) {
        self.code = code
        self.socketError = socketError
    }

    /// One line a person can act on.
    public var description: String {
        switch code {
        case .alreadyRan: return "the server already ran: make a new HTTPServer to serve again"
        case .socket: return "http server: \(socketError?.description ?? "socket call failed")"
        }
    }
}
