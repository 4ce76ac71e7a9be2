import Testing
@testable import HTTPServer

/// Parses `text` whole with default limits.
func parse(_ text: String, limits: HTTPRequestLimits = HTTPRequestLimits()) -> HTTPParseOutcome {
    HTTPRequestParser.parse(Array(text.utf8), limits: limits)
}

/// The request, or nil with the outcome recorded as an issue.
func request(_ text: String) -> HTTPRequest? {
    if case .request(let request, _) = parse(text) { return request }
    Issue.record("expected a request from \(text.debugDescription), got \(parse(text))")
    return nil
}

/// The refusal's check and status, or nil.
func refusal(_ outcome: HTTPParseOutcome) -> HTTPRequestError? {
    if case .rejected(let error) = outcome { return error }
    return nil
}

@Suite struct RequestLineTests {
    @Test("a plain GET gives method, path, version and headers, and consumes every byte")
    func plainGet() throws {
        let text = "GET /v1/entitlements HTTP/1.1\r\nHost: ledger\r\nAccept: */*\r\n\r\n"
        guard case .request(let request, let consumed) = parse(text) else { Issue.record("no request"); return }
        #expect(consumed == text.utf8.count)
        #expect(request.method == "GET")
        #expect(request.path == "/v1/entitlements")
        #expect(request.target == "/v1/entitlements")
        #expect(request.version == .http1_1)
        #expect(request.headers["host"] == "ledger")
        #expect(request.headers["ACCEPT"] == "*/*")
        #expect(request.body.isEmpty)
        #expect(request.keepAlive)
    }

    @Test("the query is split into pairs, + read as space, percent-decoded, empty pieces skipped")
    func queryDecoding() {
        guard let request = request("GET /users?name=ada+lovelace&tag=a%2Bb&&flag&x=%C3%A9 HTTP/1.1\r\nHost: h\r\n\r\n") else { return }
        #expect(request.path == "/users")
        #expect(request.query.map(\.0) == ["name", "tag", "flag", "x"])
        #expect(request.query.map(\.1) == ["ada lovelace", "a+b", "", "é"])
        #expect(request.queryValue("tag") == "a+b")
        #expect(request.queryValue("missing") == nil)
    }

    @Test("the path is percent-decoded as UTF-8 and a + in it stays a +")
    func pathDecoding() {
        guard let request = request("GET /a%20b/c+d/%E2%82%AC HTTP/1.1\r\nHost: h\r\n\r\n") else { return }
        #expect(request.path == "/a b/c+d/€")
        #expect(request.target == "/a%20b/c+d/%E2%82%AC")
    }

    @Test("bad percent-encoding in the path or the query is 400", arguments: [
        "/a%", "/a%4", "/a%zz", "/a%4g", "/x?q=%", "/x?q=%G1", "/x?%2", "/%FF", "/x?q=%C3",
    ])
    func badPercentEncoding(target: String) {
        let error = refusal(parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(error?.status == 400)
        #expect(error?.check == .invalidPercentEncoding)
    }

    @Test("a percent-encoded NUL in the target is 400")
    func encodedNul() {
        #expect(refusal(parse("GET /a%00b HTTP/1.1\r\nHost: h\r\n\r\n"))?.check == .nulByte)
        #expect(refusal(parse("GET /a?b=%00 HTTP/1.1\r\nHost: h\r\n\r\n"))?.check == .nulByte)
    }

    @Test("malformed request lines are 400", arguments: [
        "GET  / HTTP/1.1", "GET / HTTP/1.1 ", "GET /", "GET / ", " GET / HTTP/1.1", "GET / HTTP/1.1 extra",
        "GET / http/1.1", "GET / HTTP/1", "GET / HTTP/11.1", "GET / HTTPS/1.1", "GET\t/ HTTP/1.1",
    ])
    func malformedRequestLine(line: String) {
        let error = refusal(parse("\(line)\r\nHost: h\r\n\r\n"))
        #expect(error?.status == 400, "\(line.debugDescription) gave \(String(describing: error))")
    }

    @Test("a method that is not a token is 400")
    func badMethod() {
        #expect(refusal(parse("G(T / HTTP/1.1\r\nHost: h\r\n\r\n"))?.check == .invalidMethod)
        #expect(refusal(parse("GÉT / HTTP/1.1\r\nHost: h\r\n\r\n"))?.check == .invalidMethod)
    }

    @Test("targets not in origin form, or with bytes outside RFC 3986, are 400", arguments: [
        "http://example.com/", "*", "a/b", "/a#frag", "/a b", "/a\"b", "/a<b>", "/a\\b", "/a{b}", "/a|b", "/a^b", "/é",
    ])
    func badTarget(target: String) {
        let error = refusal(parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(error?.status == 400, "\(target) gave \(String(describing: error))")
    }

    @Test("a well-formed version other than 1.0 and 1.1 is 505")
    func otherVersions() {
        #expect(refusal(parse("GET / HTTP/2.0\r\nHost: h\r\n\r\n"))?.status == 505)
        #expect(refusal(parse("GET / HTTP/1.2\r\nHost: h\r\n\r\n"))?.status == 505)
    }

    @Test("HTTP/1.0 closes by default and keeps the connection only when asked")
    func http10KeepAlive() {
        #expect(request("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(request("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")?.keepAlive == true)
        #expect(request("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")?.keepAlive == false)
        #expect(request("GET / HTTP/1.1\r\nHost: h\r\nConnection: foo, CLOSE\r\n\r\n")?.keepAlive == false)
    }

    @Test("empty lines before the request line are skipped")
    func leadingEmptyLines() {
        let text = "\r\n\r\nGET /x HTTP/1.1\r\nHost: h\r\n\r\n"
        guard case .request(let request, let consumed) = parse(text) else { Issue.record("no request"); return }
        #expect(request.path == "/x")
        #expect(consumed == text.utf8.count)
    }
}

@Suite struct HeaderFieldTests {
    @Test("lookups ignore the name's case and values lose surrounding whitespace")
    func caseInsensitiveLookup() {
        guard let request = request("GET / HTTP/1.1\r\nHost: h\r\nX-Thing: \t one two \t\r\nx-thing: three\r\n\r\n") else { return }
        #expect(request.headers["X-THING"] == "one two")
        #expect(request.headers.values(for: "x-Thing") == ["one two", "three"])
        #expect(request.headers.count == 3)
    }

    @Test("a NUL byte anywhere in the head is 400", arguments: [
        "GET /\0 HTTP/1.1\r\nHost: h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\0\r\n\r\n", "GET / HTTP/1.1\r\nX\0: v\r\nHost: h\r\n\r\n",
        "\0GET / HTTP/1.1\r\n\r\n",
    ])
    func nulInHead(text: String) {
        #expect(refusal(parse(text))?.check == .nulByte)
    }

    @Test("a NUL is refused as soon as it arrives, before the head is complete")
    func nulRefusedEarly() {
        let error = refusal(parse("GET / HTTP/1.1\r\nHost: a\0"))
        #expect(error?.check == .nulByte)
        #expect(error?.offset == 23)
    }

    @Test("obsolete line folding is 400")
    func obsFold() {
        #expect(refusal(parse("GET / HTTP/1.1\r\nHost: h\r\nX-A: one\r\n two\r\n\r\n"))?.check == .obsoleteLineFolding)
        #expect(refusal(parse("GET / HTTP/1.1\r\n\tHost: h\r\n\r\n"))?.check == .obsoleteLineFolding)
    }

    @Test("bad field names are 400", arguments: [
        "Host : h", "Ho st: h", ": v", "NoColon", "X(Y): v", "Ké: v",
    ])
    func badNames(line: String) {
        let error = refusal(parse("GET / HTTP/1.1\r\nHost: h\r\n\(line)\r\n\r\n"))
        #expect(error?.check == .invalidHeaderName, "\(line) gave \(String(describing: error))")
    }

    @Test("control bytes and non-UTF-8 in a value are 400")
    func badValues() {
        #expect(refusal(parse("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{1}b\r\n\r\n"))?.check == .invalidHeaderValue)
        #expect(refusal(parse("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{7F}\r\n\r\n"))?.check == .invalidHeaderValue)
        var bytes = Array("GET / HTTP/1.1\r\nHost: h\r\nX: a".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("\r\n\r\n".utf8)
        #expect(refusal(HTTPRequestParser.parse(bytes))?.check == .invalidHeaderValue)
    }

    @Test("a bare LF or a bare CR is 400")
    func bareLineEnds() {
        #expect(refusal(parse("GET / HTTP/1.1\nHost: h\r\n\r\n"))?.check == .bareLineFeed)
        #expect(refusal(parse("GET / HTTP/1.1\r\nHost: h\n\n"))?.check == .bareLineFeed)
        #expect(refusal(parse("GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n"))?.check == .bareCarriageReturn)
    }

    @Test("HTTP/1.1 needs exactly one Host; HTTP/1.0 at most one")
    func host() {
        #expect(refusal(parse("GET / HTTP/1.1\r\n\r\n"))?.check == .missingHost)
        #expect(refusal(parse("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n"))?.check == .missingHost)
        #expect(refusal(parse("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n"))?.check == .missingHost)
        #expect(request("GET / HTTP/1.0\r\n\r\n") != nil)
    }

    @Test("a header block over 16 KiB is 431, refused before its end arrives")
    func headerBlockLimit() {
        let big = "GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 16 * 1024)
        #expect(refusal(parse(big))?.status == 431)
        // Exactly at the limit is fine.
        let prefix = "GET / HTTP/1.1\r\nHost: h\r\nX-Big: "
        let exact = prefix + String(repeating: "a", count: 16 * 1024 - prefix.utf8.count - 4) + "\r\n\r\n"
        #expect(exact.utf8.count == 16 * 1024)
        #expect(request(exact) != nil)
    }

    @Test("101 header fields are 431; 100 are fine")
    func headerCountLimit() {
        func text(_ count: Int) -> String {
            "GET / HTTP/1.1\r\nHost: h\r\n" + (1..<count).map { "X-\($0): v\r\n" }.joined() + "\r\n"
        }
        #expect(request(text(100))?.headers.count == 100)
        let error = refusal(parse(text(101)))
        #expect(error?.status == 431)
        #expect(error?.check == .tooManyHeaders)
    }

    @Test("an Expect other than 100-continue is 417")
    func expectations() {
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nExpect: tea\r\nContent-Length: 1\r\n\r\nx"))?.status == 417)
        #expect(parse("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n") == .incomplete(expectsContinue: true))
    }
}
