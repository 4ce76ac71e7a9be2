/// What the parser made of the bytes so far.
public enum HTTPParseOutcome: Sendable, Equatable {
    /// More bytes are needed. `expectsContinue` is true when the head is complete, asked
    /// `Expect: 100-continue`, and no body byte has arrived yet: the server may send `100 Continue`.
    case incomplete(expectsContinue: Bool)
    /// A whole request, which took the first `consumed` bytes; the next request starts after them.
    case request(HTTPRequest, consumed: Int)
    /// The bytes break a rule: answer `error.status` and close the connection.
    case rejected(HTTPRequestError)
}

/// A strict, incremental HTTP/1.1 request parser (RFC 9112), free of I/O.
///
/// Call `parse(_:from:)` with the connection's buffer each time bytes are appended; the bytes of
/// the request in progress must stay where they were. The parser remembers how far it got, so
/// feeding a request a byte at a time costs no more than feeding it whole. After `.request` or
/// `.rejected` it starts afresh on the next call.
///
/// Rules: CRLF line ends only (a bare CR or LF is refused); no NUL anywhere in the head; request
/// line `token SP origin-form SP HTTP/1.1|HTTP/1.0` with single spaces; header names are tokens
/// with no space before the colon; values without control bytes and valid UTF-8; obs-fold refused;
/// exactly one Host in HTTP/1.1; Content-Length digits only and at most once, never together with
/// Transfer-Encoding; Transfer-Encoding must be exactly `chunked` (other codings: 501; not
/// final: 400; in HTTP/1.0: 400). Empty lines before the request line are skipped. Statuses:
/// 400 by default, 413 body over `maxBodyBytes` (decided from Content-Length before any body
/// byte is read), 417 an Expect other than 100-continue, 431 header block over `maxHeaderBytes`
/// or more than `maxHeaderCount` fields, 501 unknown transfer coding, 505 a well-formed version
/// other than 1.0 and 1.1.
public struct HTTPRequestParser: Sendable {
    /// The sizes past which a request is refused.
    public let limits: HTTPRequestLimits

    // Progress on the request in progress (offsets from its first byte).
    var scanned = 0
    var lineStart = 0
    var requestLine: RequestLine?
    var fields: [Field] = []
    var head: Head?
    var chunkCursor = 0
    var chunkBody: [UInt8] = []
    var inTrailers = false
    var trailerStart = 0
    var trailerCount = 0

    /// A parser enforcing `limits`.
    public init(limits: HTTPRequestLimits = HTTPRequestLimits()) { self.limits = limits }

    /// Parses the request that starts at `buffer[start]`, as far as the buffer reaches.
    public mutating func parse(_ buffer: [UInt8], from start: Int = 0) -> HTTPParseOutcome {
        let outcome = advance(buffer, from: max(0, min(start, buffer.count)))
        switch outcome {
        case .request, .rejected: reset()
        case .incomplete: break
        }
        return outcome
    }

    /// Forgets the request in progress.
    public mutating func reset() { self = HTTPRequestParser(limits: limits) }

    /// Parses `bytes` as one complete input with a fresh parser.
    public static func parse(_ bytes: [UInt8], limits: HTTPRequestLimits = HTTPRequestLimits()) -> HTTPParseOutcome {
        var parser = HTTPRequestParser(limits: limits)
        return parser.parse(bytes)
    }

    /// True once the head of the request in progress is complete (only its body is awaited).
    public var headComplete: Bool { head != nil }

    private mutating func advance(_ buffer: [UInt8], from start: Int) -> HTTPParseOutcome {
        if head == nil {
            switch scanHead(buffer, from: start) {
            case .failure(let error): return .rejected(error)
            case .success(nil): return .incomplete(expectsContinue: false)
            case .success(let end?):
                switch makeHead(end: end) {
                case .failure(let error): return .rejected(error)
                case .success(let made):
                    head = made
                    chunkCursor = end
                }
            }
        }
        guard let head else { return .incomplete(expectsContinue: false) }
        let available = buffer.count - start
        switch head.framing {
        case .none:
            return .request(head.request(body: []), consumed: head.end)
        case .length(let length):
            guard available - head.end >= length else {
                return .incomplete(expectsContinue: head.expectsContinue && available == head.end)
            }
            let body = Array(buffer[(start + head.end)..<(start + head.end + length)])
            return .request(head.request(body: body), consumed: head.end + length)
        case .chunked:
            return advanceChunks(buffer, from: start, head: head)
        }
    }

    /// Scans the head for its blank line, checking line ends, NULs and the limits as it goes and
    /// parsing each line once it is complete. Returns the head's length when complete.
    private mutating func scanHead(_ buffer: [UInt8], from start: Int) -> Result<Int?, HTTPRequestError> {
        let available = buffer.count - start
        var i = scanned
        defer { scanned = i }
        while i < available {
            if i >= limits.maxHeaderBytes {
                return .failure(HTTPRequestError(.headerBlockTooLarge, at: i, "over \(limits.maxHeaderBytes) bytes"))
            }
            let byte = buffer[start + i]
            if byte == 0 { return .failure(HTTPRequestError(.nulByte, at: i)) }
            let afterCR = i > 0 && buffer[start + i - 1] == 0x0D
            if afterCR && byte != 0x0A { return .failure(HTTPRequestError(.bareCarriageReturn, at: i - 1)) }
            if byte == 0x0A {
                guard afterCR else { return .failure(HTTPRequestError(.bareLineFeed, at: i)) }
                let line = lineStart..<(i - 1)
                i += 1
                lineStart = i
                if line.isEmpty {
                    if requestLine != nil { return .success(i) }
                    continue // an empty line before the request line is skipped (RFC 9112 §2.2)
                }
                if requestLine == nil {
                    switch RequestLine.parse(buffer, line.lowerBound + start..<line.upperBound + start, base: start) {
                    case .failure(let error): return .failure(error)
                    case .success(let parsed): requestLine = parsed
                    }
                } else {
                    if fields.count >= limits.maxHeaderCount {
                        return .failure(HTTPRequestError(.tooManyHeaders, at: line.lowerBound, "over \(limits.maxHeaderCount) fields"))
                    }
                    switch Field.parse(buffer, line.lowerBound + start..<line.upperBound + start, base: start) {
                    case .failure(let error): return .failure(error)
                    case .success(let field): fields.append(field)
                    }
                }
                continue
            }
            i += 1
        }
        return .success(nil)
    }

    /// Finds the end of the line that starts at `from` (the index after its LF), checking line
    /// ends and NULs; nil when the line is not complete yet. `maxLength` bounds a line's bytes.
    func lineEnd(_ buffer: [UInt8], start: Int, from: Int, maxLength: Int, tooLong: HTTPRequestError.Check) -> Result<Int?, HTTPRequestError> {
        let available = buffer.count - start
        var i = from
        while i < available {
            if i - from >= maxLength { return .failure(HTTPRequestError(tooLong, at: from, "line over \(maxLength) bytes")) }
            let byte = buffer[start + i]
            if byte == 0 { return .failure(HTTPRequestError(.nulByte, at: i)) }
            let afterCR = i > from && buffer[start + i - 1] == 0x0D
            if afterCR && byte != 0x0A { return .failure(HTTPRequestError(.bareCarriageReturn, at: i - 1)) }
            if byte == 0x0A {
                guard afterCR else { return .failure(HTTPRequestError(.bareLineFeed, at: i)) }
                return .success(i + 1)
            }
            i += 1
        }
        return .success(nil)
    }
}
