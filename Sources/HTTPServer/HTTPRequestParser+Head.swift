extension HTTPRequestParser {
    /// A checked request line: method, raw target, decoded path and query, version.
    struct RequestLine: Sendable {
        var method: String
        var target: String
        var path: String
        var query: [(String, String)]
        var version: HTTPVersion

        /// Parses `buffer[line]` (without CRLF); `base` is the request's first index.
        static func parse(_ buffer: [UInt8], _ line: Range<Int>, base: Int) -> Result<RequestLine, HTTPRequestError> {
            let space = UInt8(ascii: " ")
            guard let firstSpace = buffer[line].firstIndex(of: space), firstSpace > line.lowerBound,
                  let secondSpace = buffer[(firstSpace + 1)..<line.upperBound].firstIndex(of: space),
                  secondSpace > firstSpace + 1,
                  !buffer[(secondSpace + 1)..<line.upperBound].contains(space) else {
                return .failure(HTTPRequestError(.malformedRequestLine, at: line.lowerBound - base, "expected METHOD SP TARGET SP VERSION"))
            }
            if let bad = buffer[line.lowerBound..<firstSpace].firstIndex(where: { !ByteClass.test($0, ByteClass.token) }) {
                return .failure(HTTPRequestError(.invalidMethod, at: bad - base))
            }
            let versionBytes = buffer[(secondSpace + 1)..<line.upperBound]
            let version: HTTPVersion
            if versionBytes.elementsEqual("HTTP/1.1".utf8) {
                version = .http1_1
            } else if versionBytes.elementsEqual("HTTP/1.0".utf8) {
                version = .http1_0
            } else if versionBytes.count == 8, versionBytes.starts(with: "HTTP/".utf8),
                      isDigit(buffer[secondSpace + 6]), buffer[secondSpace + 7] == UInt8(ascii: "."), isDigit(buffer[secondSpace + 8]) {
                return .failure(HTTPRequestError(.unsupportedVersion, at: secondSpace + 1 - base, "only HTTP/1.1 and HTTP/1.0"))
            } else {
                return .failure(HTTPRequestError(.malformedRequestLine, at: secondSpace + 1 - base, "not an HTTP version"))
            }
            let target = (firstSpace + 1)..<secondSpace
            guard buffer[target.lowerBound] == UInt8(ascii: "/") else {
                return .failure(HTTPRequestError(.invalidTarget, at: target.lowerBound - base, "must start with /"))
            }
            if let bad = buffer[target].firstIndex(where: { !ByteClass.test($0, ByteClass.target) }) {
                return .failure(HTTPRequestError(.invalidTarget, at: bad - base, "byte 0x\(String(buffer[bad], radix: 16)) not allowed"))
            }
            switch RequestTarget.decode(buffer, target, base: target.lowerBound - base) {
            case .failure(let error):
                return .failure(error)
            case .success(let decoded):
                return .success(RequestLine(method: String(decoding: buffer[line.lowerBound..<firstSpace], as: UTF8.self),
                                            target: String(decoding: buffer[target], as: UTF8.self),
                                            path: decoded.path, query: decoded.query, version: version))
            }
        }

        private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    }

    /// A checked header (or trailer) field line.
    struct Field: Sendable {
        var name: String
        var value: String
        /// Where its line starts, from the request's first byte.
        var offset: Int

        /// Parses `buffer[line]` (without CRLF); `base` is the request's first index.
        static func parse(_ buffer: [UInt8], _ line: Range<Int>, base: Int) -> Result<Field, HTTPRequestError> {
            let offset = line.lowerBound - base
            if ByteClass.isWhitespace(buffer[line.lowerBound]) {
                return .failure(HTTPRequestError(.obsoleteLineFolding, at: offset))
            }
            guard let colon = buffer[line].firstIndex(of: UInt8(ascii: ":")), colon > line.lowerBound else {
                return .failure(HTTPRequestError(.invalidHeaderName, at: offset, "no name before a colon"))
            }
            if let bad = buffer[line.lowerBound..<colon].firstIndex(where: { !ByteClass.test($0, ByteClass.token) }) {
                return .failure(HTTPRequestError(.invalidHeaderName, at: bad - base, "byte 0x\(String(buffer[bad], radix: 16)) in a name"))
            }
            var valueStart = colon + 1
            var valueEnd = line.upperBound
            while valueStart < valueEnd && ByteClass.isWhitespace(buffer[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart && ByteClass.isWhitespace(buffer[valueEnd - 1]) { valueEnd -= 1 }
            let name = String(decoding: buffer[line.lowerBound..<colon], as: UTF8.self)
            if let bad = buffer[valueStart..<valueEnd].firstIndex(where: { !ByteClass.test($0, ByteClass.fieldValue) }) {
                return .failure(HTTPRequestError(.invalidHeaderValue, at: bad - base, "control byte in \(name)"))
            }
            guard let value = String(validating: buffer[valueStart..<valueEnd], as: UTF8.self) else {
                return .failure(HTTPRequestError(.invalidHeaderValue, at: valueStart - base, "\(name) is not UTF-8"))
            }
            return .success(Field(name: name, value: value, offset: offset))
        }
    }

    /// How the body's length is known.
    enum Framing: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// A complete, checked head.
    struct Head: Sendable {
        var line: RequestLine
        var headers: HTTPHeaders
        var framing: Framing
        var expectsContinue: Bool
        /// The head's length in bytes, blank line included.
        var end: Int

        func request(body: [UInt8]) -> HTTPRequest {
            HTTPRequest(method: line.method, target: line.target, path: line.path, query: line.query,
                        version: line.version, headers: headers, body: body)
        }
    }

    /// Applies the rules that need the whole head: Host, body framing, Expect.
    func makeHead(end: Int) -> Result<Head, HTTPRequestError> {
        guard let line = requestLine else { return .failure(HTTPRequestError(.malformedRequestLine, at: 0)) }
        let hosts = fields.filter { HTTPHeaders.sameName($0.name, "Host") }
        if hosts.count > 1 || (hosts.isEmpty && line.version == .http1_1) {
            return .failure(HTTPRequestError(.missingHost, at: hosts.last?.offset ?? 0, "\(hosts.count) Host fields"))
        }
        let lengths = fields.filter { HTTPHeaders.sameName($0.name, "Content-Length") }
        let codings = fields.filter { HTTPHeaders.sameName($0.name, "Transfer-Encoding") }
        var framing = Framing.none
        if let coding = codings.first {
            if !lengths.isEmpty {
                return .failure(HTTPRequestError(.contentLengthWithTransferEncoding, at: coding.offset))
            }
            if line.version == .http1_0 {
                return .failure(HTTPRequestError(.invalidTransferEncoding, at: coding.offset, "not allowed in HTTP/1.0"))
            }
            let elements = codings.flatMap { $0.value.split(separator: ",") }.map(Self.trimmedLowercase).filter { !$0.isEmpty }
            guard let last = elements.last, last == "chunked" else {
                return .failure(HTTPRequestError(.invalidTransferEncoding, at: coding.offset, "chunked must be the final coding"))
            }
            if elements.count > 1 {
                return .failure(HTTPRequestError(.unsupportedTransferCoding, at: coding.offset, "only chunked"))
            }
            framing = .chunked
        } else if let length = lengths.first {
            if lengths.count > 1 { return .failure(HTTPRequestError(.invalidContentLength, at: lengths[1].offset, "repeated")) }
            switch parseLength(length) {
            case .failure(let error): return .failure(error)
            case .success(let value): framing = value == 0 ? .none : .length(value)
            }
        }
        var expectsContinue = false
        for expectation in fields where HTTPHeaders.sameName(expectation.name, "Expect") {
            guard HTTPHeaders.sameName(expectation.value, "100-continue") else {
                return .failure(HTTPRequestError(.unsupportedExpectation, at: expectation.offset))
            }
            expectsContinue = line.version == .http1_1
        }
        let headers = HTTPHeaders(fields.map { (name: $0.name, value: $0.value) })
        return .success(Head(line: line, headers: headers, framing: framing, expectsContinue: expectsContinue, end: end))
    }

    /// A list element without surrounding whitespace, in ASCII lower case.
    static func trimmedLowercase(_ element: Substring) -> String {
        var bytes = Array(element.utf8)
        while let last = bytes.last, ByteClass.isWhitespace(last) { bytes.removeLast() }
        return String(decoding: bytes.drop(while: ByteClass.isWhitespace).map(ByteClass.lower), as: UTF8.self)
    }

    /// 1*DIGIT, at most `maxBodyBytes`; a larger value is 413 before any body byte is read.
    private func parseLength(_ field: Field) -> Result<Int, HTTPRequestError> {
        var value = 0
        var tooLarge = false
        for byte in field.value.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else {
                return .failure(HTTPRequestError(.invalidContentLength, at: field.offset, "not a decimal number"))
            }
            let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = tens.addingReportingOverflow(Int(byte - 0x30))
            if tooLarge || overflow || carry || next > limits.maxBodyBytes { tooLarge = true } else { value = next }
        }
        if field.value.isEmpty { return .failure(HTTPRequestError(.invalidContentLength, at: field.offset, "empty")) }
        if tooLarge || value > limits.maxBodyBytes {
            return .failure(HTTPRequestError(.bodyTooLarge, at: field.offset, "Content-Length over \(limits.maxBodyBytes)"))
        }
        return .success(value)
    }
}
