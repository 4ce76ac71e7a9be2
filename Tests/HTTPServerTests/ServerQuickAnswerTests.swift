import Foundation
import Synchronization
import Testing
@testable import HTTPServer

/// `Configuration.quickAnswer`: answers given on the I/O thread keep a connection's order with
/// the ones workers give, pipelined or not, and nil hands the request to the handler.
@Suite struct ServerQuickAnswerTests {
    /// Answers `/quick…` paths at once, with the path; leaves the others to the handler.
    final class Count: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var total: Int { value.withLock { $0 } }
    }

    static func configuration(counting quick: Count) -> HTTPServer.Configuration {
        var c = HTTPServer.Configuration()
        c.quickAnswer = { request in
            guard request.path.hasPrefix("/quick") else { return nil }
            quick.add()
            return HTTPResponse(status: 200, text: "quick \(request.path)")
        }
        return c
    }

    @Test("pipelined requests, some answered at once and some by a worker, are answered in order")
    func mixedPipeline() throws {
        let quick = Count()
        let running = try RunningServer(Self.configuration(counting: quick), handler: echoHandler)
        let client = try TestClient(running.address)
        let paths = ["/quick1", "/slow1", "/quick2", "/quick3", "/slow2", "/quick4"]
        try client.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: test\r\n\r\n" }.joined())
        for path in paths {
            let answer = try client.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text == (path.hasPrefix("/quick") ? "quick \(path)" : "GET \(path) "), "\(path)")
        }
        #expect(quick.total == 4)
        #expect(running.stop())
    }

    @Test("a quick answer to a request asking to close is the last on its connection")
    func quickAnswerThenClose() throws {
        let quick = Count()
        let running = try RunningServer(Self.configuration(counting: quick), handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("GET /quick HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\nGET /quick-never HTTP/1.1\r\nHost: test\r\n\r\n")
        let answer = try client.readResponse()
        #expect(answer.text == "quick /quick" && answer.headers["connection"] == "close")
        #expect(try client.readUntilClosed().isEmpty)
        #expect(quick.total == 1)
        #expect(running.stop())
    }

    @Test("many pipelined quick answers in one write are all sent, without recursion")
    func manyPipelined() throws {
        let quick = Count()
        let running = try RunningServer(Self.configuration(counting: quick), handler: echoHandler)
        let client = try TestClient(running.address)
        let count = 400
        try client.send((0..<count).map { "GET /quick\($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
        for i in 0..<count { #expect(try client.readResponse().text == "quick /quick\(i)") }
        #expect(quick.total == count)
        #expect(running.stop())
    }
}

/// `Configuration.requestLogFlush`: every logged line is flushed, at the latest when the server stops.
@Suite struct ServerRequestLogFlushTests {
    final class Lines: Sendable {
        private let state = Mutex<(pending: [String], flushed: [String], flushes: Int)>(([], [], 0))
        func add(_ entry: HTTPRequestLog) { state.withLock { $0.pending.append(entry.path) } }
        func flush() { state.withLock { $0.flushed += $0.pending; $0.pending = []; $0.flushes += 1 } }
        var snapshot: (pending: [String], flushed: [String], flushes: Int) { state.withLock { $0 } }
    }

    @Test("a line appended as bytes is the same line as jsonLine, escaped or not")
    func appendedLineIsJSONLine() throws {
        for entry in [HTTPRequestLog(method: "GET", path: "/billing/entitlements", status: 200, microseconds: 12, requestBytes: 0, responseBytes: 153),
                      HTTPRequestLog(method: "-", path: "/a\"b\\c\n\u{7F}é", status: 400, microseconds: 0, requestBytes: 9, responseBytes: 5)] {
            var out: [UInt8] = []
            entry.appendJSONLine(to: &out)
            #expect(String(decoding: out, as: UTF8.self) == entry.jsonLine)
        }
    }

    @Test("every request's line reaches the flush, in order, once the server stops")
    func linesAreFlushed() throws {
        let lines = Lines()
        var c = HTTPServer.Configuration()
        c.requestLog = { lines.add($0) }
        c.requestLogFlush = { lines.flush() }
        let running = try RunningServer(c, handler: echoHandler)
        let client = try TestClient(running.address)
        let paths = (0..<20).map { "/r\($0)" }
        for path in paths {
            try client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
        #expect(running.stop())
        let seen = lines.snapshot
        #expect(seen.pending.isEmpty && seen.flushed == paths, "\(seen)")
        #expect(seen.flushes >= 1 && seen.flushes <= paths.count)
    }
}
