import Foundation
import Synchronization
import Testing
@testable import HTTPServer
import Platform

@Suite struct ServerEndToEndTests {
    @Test("GET then POST on one kept-alive connection are both answered")
    func keepAlive() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("GET /v1/entitlements?user=u%201 HTTP/1.1\r\nHost: test\r\n\r\n")
        let first = try client.readResponse()
        #expect(first.status == 200)
        #expect(first.text == "GET /v1/entitlements \nuser=u 1")
        #expect(first.headers["connection"] == nil)
        try client.send("POST /v1/webhooks HTTP/1.1\r\nHost: test\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
        let second = try client.readResponse()
        #expect(second.status == 200)
        #expect(second.text == "POST /v1/webhooks {\"a\":1}")
        #expect(second.headers["content-length"] == "\(second.body.count)")
        #expect(running.stop())
    }

    @Test("pipelined requests sent in one write are answered in order")
    func pipelining() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        let requests = (1...5).map { "GET /r\($0) HTTP/1.1\r\nHost: test\r\n\r\n" }.joined()
            + "POST /r6 HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\n\r\nabc"
        try client.send(requests)
        for index in 1...5 {
            #expect(try client.readResponse().text == "GET /r\(index) ")
        }
        #expect(try client.readResponse().text == "POST /r6 abc")
        #expect(running.stop())
    }

    @Test("a client that shuts its sending side after pipelined requests gets every answer, then the close")
    func halfClose() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("GET /one HTTP/1.1\r\nHost: test\r\n\r\nGET /two HTTP/1.1\r\nHost: test\r\n\r\n")
        SocketCalls.shutdownWrite(client.descriptor)
        #expect(try client.readResponse().text == "GET /one ")
        let last = try client.readResponse()
        #expect(last.text == "GET /two ")
        #expect(last.headers["connection"] == "close")
        #expect(try client.readUntilClosed().isEmpty)
        #expect(running.stop())
    }

    @Test("a chunked POST is decoded and answered")
    func chunkedPost() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("POST /hook HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send("5\r\nhello\r\n")
        try client.send("6\r\n world\r\n0\r\n\r\n")
        #expect(try client.readResponse().text == "POST /hook hello world")
        #expect(running.stop())
    }

    @Test("Expect: 100-continue gets 100 Continue before the body is sent")
    func expectContinue() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("POST /hook HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(try client.readResponse().status == 100)
        try client.send("data")
        #expect(try client.readResponse().text == "POST /hook data")
        #expect(running.stop())
    }

    @Test("HEAD gets the headers with the body's Content-Length and no body")
    func head() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("HEAD /x HTTP/1.1\r\nHost: test\r\n\r\nGET /y HTTP/1.1\r\nHost: test\r\n\r\n")
        let head = try client.readResponse(headOnly: true)
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "\("HEAD /x ".utf8.count)")
        #expect(try client.readResponse().text == "GET /y ")
        #expect(running.stop())
    }

    @Test("HTTP/1.0 is answered with Connection: close and then closed")
    func http10Closes() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("GET /old HTTP/1.0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.text == "GET /old ")
        #expect(response.headers["connection"] == "close")
        #expect(try client.readUntilClosed().isEmpty)
        #expect(running.stop())
    }

    @Test("HTTP/1.0 with Connection: keep-alive stays open")
    func http10KeepAlive() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try client.readResponse().headers["connection"] == "keep-alive")
        try client.send("GET /b HTTP/1.0\r\n\r\n")
        #expect(try client.readResponse().text == "GET /b ")
        #expect(try client.readUntilClosed().isEmpty)
        #expect(running.stop())
    }

    @Test("a responder answered later from another thread is delivered")
    func asynchronousResponder() throws {
        let secondCalls = Mutex<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let running = try RunningServer { request, responder in
            Thread {
                responder.respond(HTTPResponse(status: 202, text: "committed \(request.path)"))
                let second = responder.respond(HTTPResponse(status: 500))
                secondCalls.withLock { $0.append(second) }
                done.signal()
            }.start()
        }
        let client = try TestClient(running.address)
        for index in 0..<3 {
            try client.send("POST /commit\(index) HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 202)
            #expect(response.text == "committed /commit\(index)")
            #expect(done.wait(timeout: .now() + 10) == .success)
        }
        // Each second respond() was refused and sent nothing (the next answers matched their requests).
        #expect(secondCalls.withLock { $0 } == [false, false, false])
        #expect(running.stop())
    }

    @Test("a handler that drops its responder without answering yields 500")
    func droppedResponder() throws {
        let running = try RunningServer { _, _ in }
        let client = try TestClient(running.address)
        try client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(try client.readResponse().status == 500)
        #expect(running.stop())
    }

    @Test("a response with a header that would break framing is replaced by 500")
    func injectedHeader() throws {
        let running = try RunningServer { _, responder in
            responder.respond(HTTPResponse(status: 200, headers: ["X-A": "b\r\nSet-Cookie: evil=1"]))
        }
        let client = try TestClient(running.address)
        try client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 500)
        #expect(response.headers["set-cookie"] == nil)
        #expect(running.stop())
    }

    @Test("one log entry per request, with method, path, status and sizes, never a header or the body")
    func requestLog() throws {
        let entries = Mutex<[HTTPRequestLog]>([])
        let configuration = HTTPServer.Configuration(requestLog: { entry in entries.withLock { $0.append(entry) } })
        let running = try RunningServer(configuration, handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("POST /v1/hook?token=querysecret HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer sekrit-token\r\nContent-Length: 9\r\n\r\nbodysecre")
        let response = try client.readResponse()
        try client.send("GET /bad%zz HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(try client.readResponse().status == 400)
        #expect(running.stop())
        let logged = entries.withLock { $0 }
        #expect(logged.count == 2)
        guard logged.count == 2 else { return }
        #expect(logged[0].method == "POST")
        #expect(logged[0].path == "/v1/hook")
        #expect(logged[0].status == 200)
        #expect(logged[0].requestBytes == 9)
        #expect(logged[0].responseBytes == response.body.count)
        #expect(logged[0].microseconds >= 0)
        #expect(logged[1].status == 400)
        for line in logged.map(\.jsonLine) {
            #expect(!line.contains("sekrit") && !line.contains("bodysecre") && !line.contains("querysecret"))
        }
    }
}
