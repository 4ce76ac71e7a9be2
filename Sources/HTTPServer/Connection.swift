import Platform
/// One client connection's state. Touched only by the I/O thread.
final class Connection {
    /// What the connection is doing.
    enum Phase: Equatable {
        /// Reading requests and writing responses.
        case open
        /// The last response is sent and the write side shut: reading and discarding what the
        /// client still sends until it closes, so the response is not destroyed by a reset.
        case lingering(until: UInt64)
    }

    /// The request a handler is working on.
    struct InFlight {
        var method: String
        var path: String
        var keepAlive: Bool
        var announceKeepAlive: Bool
        var headOnly: Bool
        var received: UInt64
        var requestBytes: Int
    }

    let id: UInt64
    let descriptor: Int32
    var phase = Phase.open
    /// Bytes read and not yet consumed start at `inputStart`.
    var input: [UInt8] = []
    var inputStart = 0
    var parser: HTTPRequestParser
    /// Bytes to send start at `outputStart`.
    var output: [UInt8] = []
    var outputStart = 0
    var inFlight: InFlight?
    /// Close (after lingering) once the queued output is sent.
    var closeAfterOutput = false
    /// The client shut its sending side.
    var peerClosed = false
    var sentContinue = false
    /// When the first byte of the request being received was parsed; nil between requests.
    var requestStarted: UInt64?
    /// When the connection last became idle (accepted, or a response fully sent).
    var idleSince: UInt64
    var lastWriteProgress: UInt64
    /// What the descriptor is registered for.
    var interest: PollInterest = .readable
    /// Bytes discarded while lingering.
    var discarded = 0

    init(id: UInt64, descriptor: Int32, limits: HTTPRequestLimits, now: UInt64) {
        self.id = id
        self.descriptor = descriptor
        self.parser = HTTPRequestParser(limits: limits)
        self.idleSince = now
        self.lastWriteProgress = now
    }

    /// Bytes read but not yet parsed into a request.
    var pendingInput: Int { input.count - inputStart }

    /// Bytes queued and not yet sent.
    var pendingOutput: Int { output.count - outputStart }

    /// Drops consumed input.
    func compactInput() {
        if inputStart == input.count {
            // A large body's storage is given back; a small buffer is kept for the next request.
            input.removeAll(keepingCapacity: input.capacity <= 65_536)
            inputStart = 0
        } else if inputStart > 65_536 || inputStart > input.count / 2 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }
}
