import Testing
@testable import HTTPServer

@Suite struct ContentLengthTests {
    @Test("a Content-Length body is read exactly and the next request starts after it")
    func lengthBody() {
        let first = "POST /hook HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
        let text = first + "GET /next HTTP/1.1\r\nHost: h\r\n\r\n"
        let bytes = Array(text.utf8)
        var parser = HTTPRequestParser()
        guard case .request(let request, let consumed) = parser.parse(bytes) else { Issue.record("no first request"); return }
        #expect(request.body == Array("hello".utf8))
        #expect(consumed == first.utf8.count)
        guard case .request(let next, let rest) = parser.parse(bytes, from: consumed) else { Issue.record("no second request"); return }
        #expect(next.path == "/next")
        #expect(consumed + rest == bytes.count)
    }

    @Test("a body still arriving is incomplete")
    func partialBody() {
        #expect(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc") == .incomplete(expectsContinue: false))
    }

    @Test("a body over 1 MiB is 413 from the head alone, before any body byte")
    func tooLarge() {
        let error = refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10485760\r\n\r\n"))
        #expect(error?.status == 413)
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n"))?.status == 413)
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999999\r\n\r\n"))?.status == 413)
        #expect(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048576\r\n\r\n") == .incomplete(expectsContinue: false))
    }

    @Test("a repeated or invalid Content-Length is 400", arguments: [
        "Content-Length: 5\r\nContent-Length: 5", "Content-Length: 5, 5", "Content-Length: abc", "Content-Length: -1",
        "Content-Length: +5", "Content-Length: ", "Content-Length: 0x10", "Content-Length: 1 2", "Content-Length: 99999999999999999999x",
    ])
    func badLength(fields: String) {
        let error = refusal(parse("POST / HTTP/1.1\r\nHost: h\r\n\(fields)\r\n\r\nhello"))
        #expect(error?.status == 400, "\(fields.debugDescription) gave \(String(describing: error))")
        #expect(error?.check == .invalidContentLength)
    }

    @Test("Content-Length with Transfer-Encoding is 400 (RFC 9112 §6.3)")
    func bothFramings() {
        let error = refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))
        #expect(error?.status == 400)
        #expect(error?.check == .contentLengthWithTransferEncoding)
    }
}

@Suite struct ChunkedBodyTests {
    // The example of Wikipedia's "Chunked transfer encoding" article: three chunks, the last
    // holding CRLFs of its own, decode to "Wikipedia in\r\n\r\nchunks.".
    static let wikipediaBody = "4\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\n\r\n"

    @Test("a chunked body is decoded and the request ends after the last chunk")
    func decodes() {
        let text = "POST /hook HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + Self.wikipediaBody
        guard case .request(let request, let consumed) = parse(text) else { Issue.record("no request: \(parse(text))"); return }
        #expect(String(decoding: request.body, as: UTF8.self) == "Wikipedia in\r\n\r\nchunks.")
        #expect(consumed == text.utf8.count)
    }

    @Test("chunk extensions are skipped and trailer fields checked then dropped")
    func extensionsAndTrailers() {
        let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "3;name=value\r\nabc\r\n2 ; x\r\nde\r\n000\r\nX-Sum: 5\r\n\r\n"
        guard case .request(let request, _) = parse(text) else { Issue.record("no request: \(parse(text))"); return }
        #expect(request.body == Array("abcde".utf8))
        #expect(request.headers["X-Sum"] == nil)
    }

    @Test("a chunked body over 1 MiB is 413 as soon as a chunk size passes the limit")
    func tooLarge() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(refusal(parse(head + "100001\r\n"))?.status == 413)
        #expect(refusal(parse(head + "FFFFFFFFFFFFFFFFFFFFFFFF\r\n"))?.status == 413)
        let limits = HTTPRequestLimits(maxBodyBytes: 5)
        #expect(refusal(parse(head + "3\r\nabc\r\n3\r\n", limits: limits))?.status == 413)
    }

    @Test("malformed chunks are 400", arguments: [
        "x\r\n", "\r\n", "3\r\nabcd\r\n0\r\n\r\n", "3\r\nab\r\n0\r\n\r\n", "3 x\r\nabc\r\n0\r\n\r\n",
        "3;a\u{1}\r\nabc\r\n0\r\n\r\n", "0\r\nbad trailer\r\n\r\n", "0\r\n\tfold: x\r\n\r\n", "3\nabc\r\n0\r\n\r\n",
    ])
    func malformed(body: String) {
        let error = refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + body))
        #expect(error?.status == 400, "\(body.debugDescription) gave \(String(describing: error))")
    }

    @Test("transfer codings other than chunked are 501; chunked not last is 400; in HTTP/1.0 it is 400")
    func otherCodings() {
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"))?.status == 501)
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"))?.status == 501)
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n"))?.status == 400)
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n"))?.status == 400)
        #expect(refusal(parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \r\n\r\n"))?.status == 400)
        #expect(refusal(parse("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))?.status == 400)
    }

    @Test("a trailer section over the header limit is 431")
    func longTrailers() {
        let limits = HTTPRequestLimits(maxHeaderBytes: 256)
        let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + String(repeating: "t", count: 300)
        #expect(refusal(parse(text, limits: limits))?.status == 431)
    }
}

@Suite struct IncrementalParsingTests {
    static let samples = [
        "GET /a?b=c HTTP/1.1\r\nHost: h\r\n\r\n",
        "POST /hook HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world",
        "POST /hook HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + ChunkedBodyTests.wikipediaBody,
        "\r\nGET / HTTP/1.0\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nBad Name: v\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc\r\n",
    ]

    @Test("feeding a request one byte at a time gives the same outcome as feeding it whole", arguments: samples)
    func byteAtATime(text: String) {
        let bytes = Array(text.utf8)
        var parser = HTTPRequestParser()
        var outcome = HTTPParseOutcome.incomplete(expectsContinue: false)
        for end in 1...bytes.count {
            outcome = parser.parse(Array(bytes[0..<end]))
            if case .incomplete = outcome { continue }
            #expect(end == bytes.count || refusal(outcome) != nil, "finished early at \(end) of \(bytes.count)")
            break
        }
        #expect(outcome == HTTPRequestParser.parse(bytes))
    }

    @Test("a head still arriving is incomplete and never 100-continue")
    func partialHead() {
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n") == .incomplete(expectsContinue: false))
        #expect(parse("GET / HTTP/1.1\r") == .incomplete(expectsContinue: false))
        #expect(parse("") == .incomplete(expectsContinue: false))
    }
}
