import Platform
extension EventLoop {
    /// Reacts to readiness on one connection.
    func handle(_ event: PollEvent, on connection: Connection) {
        if event.failed {
            close(connection)
            return
        }
        if event.writable { flush(connection) }
        guard connections[connection.id] != nil, event.readable else { return }
        switch connection.phase {
        case .lingering: discardInput(connection)
        case .open:
            // Readiness while the client's side is already shut is a hang-up: nobody will read the answer.
            if connection.peerClosed {
                close(connection)
                return
            }
            readInput(connection)
        }
    }

    /// Reads once and parses what arrived.
    private func readInput(_ connection: Connection) {
        let result: SocketReadResult
        do {
            result = try SocketCalls.read(connection.descriptor, into: &scratch, count: scratch.count)
        } catch {
            close(connection)
            return
        }
        switch result {
        case .wouldBlock:
            return
        case .endOfStream:
            connection.peerClosed = true
            if connection.inFlight == nil && connection.pendingOutput == 0 {
                close(connection)
                return
            }
        case .bytes(let count):
            connection.input.append(contentsOf: scratch[0..<count])
        }
        parseInput(connection)
    }

    /// Parses buffered bytes into the next request when none is in flight: dispatches it,
    /// refuses it, or waits for more (sending `100 Continue` when asked).
    func parseInput(_ connection: Connection) {
        defer { updateInterest(connection) }
        // One request after another while each is answered at once (`quickAnswer`), so that
        // pipelined requests never recurse.
        while connections[connection.id] != nil {
            guard connection.phase == .open, connection.inFlight == nil, !connection.closeAfterOutput else { return }
            guard connection.pendingInput > 0 else {
                connection.requestStarted = nil
                if connection.peerClosed && connection.pendingOutput == 0 { close(connection) }
                return
            }
            if connection.requestStarted == nil { connection.requestStarted = now }
            switch connection.parser.parse(connection.input, from: connection.inputStart) {
            case .incomplete(let expectsContinue):
                if connection.peerClosed {
                    close(connection)
                } else if expectsContinue && !connection.sentContinue {
                    connection.sentContinue = true
                    connection.output.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
                    flush(connection)
                }
                return
            case .request(let request, let consumed):
                connection.inputStart += consumed
                connection.compactInput()
                connection.requestStarted = nil
                connection.sentContinue = false
                guard dispatch(request, on: connection) else { return }
            case .rejected(let error):
                refuse(connection, status: error.status, check: error)
                return
            }
        }
    }

    /// Marks the request in flight and hands it to the workers, or answers it at once when
    /// `quickAnswer` can (then returns true: the caller parses the next one).
    private func dispatch(_ request: HTTPRequest, on connection: Connection) -> Bool {
        let keepAlive = configuration.keepAlive && request.keepAlive && !stopping
        connection.inFlight = Connection.InFlight(
            method: request.method, path: request.path, keepAlive: keepAlive,
            announceKeepAlive: keepAlive && request.version == .http1_0, headOnly: request.method == "HEAD",
            received: now, requestBytes: request.body.count)
        if let quick = configuration.quickAnswer, let response = quick(request) {
            answer(connection, with: response)
            return true
        }
        pool.submit(request, HTTPResponder(connection: connection.id, queue: completions))
        return false
    }

    /// Writes the responses handlers have finished, then parses any pipelined request.
    func deliverResponses() {
        for completion in completions.takeAll() {
            guard let connection = connections[completion.connection], connection.inFlight != nil else { continue }
            answer(connection, with: completion.response)
            if connections[connection.id] != nil { parseInput(connection) }
        }
    }

    /// Writes the response to the request in flight on `connection`, logs it, and sends it.
    private func answer(_ connection: Connection, with answer: HTTPResponse) {
        guard let flight = connection.inFlight else { return }
        connection.inFlight = nil
        // A client that shut its side is answered to the end of what it pipelined, then closed.
        let close = !flight.keepAlive || stopping || (connection.peerClosed && connection.pendingInput == 0)
        let options = HTTPResponse.WireOptions(close: close, announceKeepAlive: flight.announceKeepAlive && !close,
                                               headOnly: flight.headOnly)
        var response = answer
        var sent = response.serialize(into: &connection.output, options)
        if sent == nil {
            response = HTTPResponse(status: 500, text: "the handler's response had an invalid status or header\n")
            sent = response.serialize(into: &connection.output, options)
        }
        log(HTTPRequestLog(method: flight.method, path: flight.path, status: response.status,
                           microseconds: Int((now &- flight.received) / 1_000), requestBytes: flight.requestBytes,
                           responseBytes: sent ?? 0))
        if close { connection.closeAfterOutput = true }
        flush(connection)
    }

    /// Answers `status` with `Connection: close` (a refusal from the parser, a timeout, or 503
    /// past the connection limit) and closes after it.
    func refuse(_ connection: Connection, status: Int, check: HTTPRequestError?) {
        let response = check.map(HTTPResponse.refusal)
            ?? HTTPResponse.refusal(status: status, because: "\(status) \(HTTPResponse.reasonPhrase(status))")
        let sent = response.serialize(into: &connection.output, HTTPResponse.WireOptions(close: true, announceKeepAlive: false, headOnly: false))
        log(HTTPRequestLog(method: "-", path: "-", status: status, microseconds: 0, requestBytes: 0, responseBytes: sent ?? 0))
        connection.closeAfterOutput = true
        connection.requestStarted = nil
        flush(connection)
    }

    /// Sends queued output until done or the socket is full; then lingers if closing.
    func flush(_ connection: Connection) {
        while connection.pendingOutput > 0 {
            do {
                guard let sent = try SocketCalls.write(connection.descriptor, connection.output, from: connection.outputStart) else { break }
                connection.outputStart += sent
                connection.lastWriteProgress = now
            } catch {
                close(connection)
                return
            }
        }
        if connection.pendingOutput == 0 {
            connection.output.removeAll(keepingCapacity: connection.output.capacity <= 262_144)
            connection.outputStart = 0
            if connection.closeAfterOutput && connection.inFlight == nil {
                startLingering(connection)
                return
            }
            if connection.peerClosed && connection.inFlight == nil && connection.pendingInput == 0 {
                close(connection) // the client shut its side and has nothing more to ask
                return
            }
            connection.idleSince = now
        }
        updateInterest(connection)
    }

    /// Shuts the write side and discards input until the client closes or the linger time ends.
    private func startLingering(_ connection: Connection) {
        guard connection.phase == .open else { return }
        SocketCalls.shutdownWrite(connection.descriptor)
        if connection.peerClosed || stopping && lingerNanoseconds == 0 {
            close(connection)
            return
        }
        connection.phase = .lingering(until: now &+ lingerNanoseconds)
        connection.input = []
        connection.inputStart = 0
        lingering += 1
        updateInterest(connection)
    }

    private func discardInput(_ connection: Connection) {
        do {
            switch try SocketCalls.read(connection.descriptor, into: &scratch, count: scratch.count) {
            case .wouldBlock: return
            case .endOfStream: close(connection)
            case .bytes(let count):
                connection.discarded += count
                if connection.discarded > Self.maxLingerBytes { close(connection) }
            }
        } catch {
            close(connection)
        }
    }

    /// Closes the descriptor and forgets the connection (a late response for it is dropped).
    func close(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        if case .lingering = connection.phase { lingering -= 1 }
        SocketCalls.close(connection.descriptor)
    }

    /// Registers for reading unless input is paused, and for writing while output waits.
    func updateInterest(_ connection: Connection) {
        guard connections[connection.id] != nil else { return }
        var wanted: PollInterest = []
        switch connection.phase {
        case .lingering:
            wanted = .readable
        case .open:
            if connection.pendingOutput > 0 { wanted.insert(.writable) }
            let paused = connection.inFlight != nil && connection.pendingInput >= Self.maxPipelinedBytes
            if !connection.peerClosed && !connection.closeAfterOutput && !paused { wanted.insert(.readable) }
        }
        guard wanted != connection.interest else { return }
        do {
            try SocketCalls.modify(connection.descriptor, in: poll, interest: wanted, token: connection.id)
            connection.interest = wanted
        } catch {
            close(connection)
        }
    }

    func log(_ entry: HTTPRequestLog) {
        guard let requestLog = configuration.requestLog else { return }
        requestLog(entry)
        loggedSinceFlush = true
    }
}
