import Platform
extension EventLoop {
    /// Enforces the deadlines: an idle connection past `idleTimeout` is closed; a request not
    /// fully received `requestTimeout` after its first byte is answered 408 and closed; a client
    /// that reads nothing for `idleTimeout` while a response waits is closed; lingering ends.
    func sweep() {
        resumeAccepting()
        for connection in Array(connections.values) {
            switch connection.phase {
            case .lingering(let until):
                if now >= until { close(connection) }
            case .open:
                if connection.pendingOutput > 0 {
                    if now &- connection.lastWriteProgress >= idleNanoseconds { close(connection) }
                } else if connection.inFlight != nil || connection.closeAfterOutput {
                    continue
                } else if let started = connection.requestStarted {
                    if now &- started >= requestNanoseconds {
                        refuse(connection, status: 408, check: HTTPRequestError(.requestTimeout, at: connection.pendingInput))
                    }
                } else if now &- connection.idleSince >= idleNanoseconds {
                    close(connection)
                }
            }
        }
    }

    /// Stops accepting; closes idle and half-received connections; lets requests in flight finish
    /// (their responses say `Connection: close`); gives everything `shutdownGracePeriod`.
    func beginStop() {
        stopping = true
        stopDeadline = now &+ MonotonicClock.nanoseconds(configuration.shutdownGracePeriod)
        if let listener {
            SocketCalls.close(listener)
            self.listener = nil
        }
        for connection in Array(connections.values) {
            switch connection.phase {
            case .lingering:
                close(connection)
            case .open:
                if connection.inFlight == nil && connection.pendingOutput == 0 {
                    close(connection)
                } else {
                    connection.closeAfterOutput = true
                    updateInterest(connection)
                }
            }
        }
    }
}
