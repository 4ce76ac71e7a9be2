import Foundation
import Synchronization
import Testing
@testable import HTTPServer
import Platform

@Suite struct ServerLimitsTests {
    /// Sends `request`, expects one response with `status` and `Connection: close`, then the close.
    func expectRefusal(_ request: [UInt8], status: Int, running: RunningServer) throws {
        let client = try TestClient(running.address)
        try client.send(request)
        let response = try client.readResponse()
        #expect(response.status == status)
        #expect(response.headers["connection"] == "close")
        #expect(try client.readUntilClosed().isEmpty)
    }

    @Test("headers announcing 10 MiB get 413 and a close while the body is never sent")
    func bodyTooLarge() throws {
        let handled = Atomic<Int>(0)
        let running = try RunningServer { request, responder in
            handled.add(1, ordering: .relaxed)
            echoHandler(request, responder)
        }
        // The client sends no body at all: an answer proves the server did not wait to read it.
        try expectRefusal(Array("POST /hook HTTP/1.1\r\nHost: test\r\nContent-Length: 10485760\r\n\r\n".utf8), status: 413, running: running)
        #expect(handled.load(ordering: .relaxed) == 0)
        #expect(running.stop())
    }

    @Test("a client still sending a large body after its 413 reads the 413, not a reset")
    func bodyTooLargeWhileSending() throws {
        let running = try RunningServer(handler: echoHandler)
        let client = try TestClient(running.address)
        try client.send("POST /hook HTTP/1.1\r\nHost: test\r\nContent-Length: 2000000\r\n\r\n")
        try client.send([UInt8](repeating: 0x61, count: 200_000))
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(running.stop())
    }

    @Test("a header block over 16 KiB gets 431 and a close")
    func headerBlockTooLarge() throws {
        let running = try RunningServer(handler: echoHandler)
        let request = "GET / HTTP/1.1\r\nHost: test\r\nX-Big: " + String(repeating: "b", count: 20_000) + "\r\n\r\n"
        try expectRefusal(Array(request.utf8), status: 431, running: running)
        #expect(running.stop())
    }

    @Test("more than 100 header fields get 431")
    func tooManyHeaders() throws {
        let running = try RunningServer(handler: echoHandler)
        let request = "GET / HTTP/1.1\r\nHost: test\r\n" + (0..<120).map { "X-\($0): v\r\n" }.joined() + "\r\n"
        try expectRefusal(Array(request.utf8), status: 431, running: running)
        #expect(running.stop())
    }

    @Test("Content-Length with Transfer-Encoding gets 400 and a close")
    func bothFramings() throws {
        let running = try RunningServer(handler: echoHandler)
        let request = "POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        try expectRefusal(Array(request.utf8), status: 400, running: running)
        #expect(running.stop())
    }

    @Test("a NUL byte in the head gets 400 and a close")
    func nulByte() throws {
        let running = try RunningServer(handler: echoHandler)
        try expectRefusal(Array("GET /a HTTP/1.1\r\nHost: te\0st\r\n\r\n".utf8), status: 400, running: running)
        #expect(running.stop())
    }

    @Test("a connection past the limit is accepted, answered 503 and closed")
    func connectionLimit() throws {
        let running = try RunningServer(HTTPServer.Configuration(maxConnections: 2), handler: echoHandler)
        // Two connections the server has certainly accepted: each got an answer and stays open.
        let first = try TestClient(running.address)
        let second = try TestClient(running.address)
        for client in [first, second] {
            try client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
        try expectRefusal(Array("GET / HTTP/1.1\r\nHost: test\r\n\r\n".utf8), status: 503, running: running)
        // The first two still work.
        try first.send("GET /again HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(try first.readResponse().text == "GET /again ")
        #expect(running.stop())
    }

    @Test("a silent client is closed at the idle timeout")
    func idleTimeout() throws {
        let running = try RunningServer(HTTPServer.Configuration(idleTimeout: .milliseconds(200)), handler: echoHandler)
        let silent = try TestClient(running.address, receiveTimeout: 20)
        #expect(try silent.readUntilClosed().isEmpty)
        // A kept-alive connection that goes quiet after a request is closed too.
        let quiet = try TestClient(running.address, receiveTimeout: 20)
        try quiet.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(try quiet.readResponse().status == 200)
        #expect(try quiet.readUntilClosed().isEmpty)
        #expect(running.stop())
    }

    @Test("a slowloris trickling its head is answered 408 and closed at its request deadline")
    func slowloris() throws {
        let configuration = HTTPServer.Configuration(requestTimeout: .milliseconds(300), idleTimeout: .seconds(60))
        let running = try RunningServer(configuration, handler: echoHandler)
        let client = try TestClient(running.address, receiveTimeout: 0.02)
        let head = Array("GET / HTTP/1.1\r\nHost: test\r\n".utf8) + Array(repeating: UInt8(ascii: "X"), count: 2_000)
        var sent = 0
        var answer: [UInt8] = []
        var closed = false
        var scratch = [UInt8](repeating: 0, count: 4096)
        // One byte, then a short wait for the server's answer; bounded by the head's length.
        trickle: while sent < head.count {
            do {
                try SocketCalls.writeAll(client.descriptor, [head[sent]])
            } catch {
                closed = true
                break trickle
            }
            sent += 1
            while true {
                let result: SocketReadResult
                do { result = try SocketCalls.read(client.descriptor, into: &scratch, count: scratch.count) } catch {
                    closed = true
                    break trickle
                }
                switch result {
                case .wouldBlock: continue trickle
                case .endOfStream: closed = true; break trickle
                case .bytes(let count): answer += scratch[0..<count]
                }
            }
        }
        #expect(closed)
        #expect(sent < head.count)
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408 "))
        #expect(running.stop())
    }

    @Test("200 idle connections held open do not keep a normal request from being answered")
    func manyIdleConnections() throws {
        let running = try RunningServer(HTTPServer.Configuration(maxConnections: 400), handler: echoHandler)
        var idle: [TestClient] = []
        for index in 0..<200 {
            let client = try TestClient(running.address)
            // Half say nothing, half stop in the middle of a head.
            if index % 2 == 1 { try client.send("GET /slow HTTP/1.1\r\nHo") }
            idle.append(client)
        }
        let normal = try TestClient(running.address)
        try normal.send("GET /fast HTTP/1.1\r\nHost: test\r\n\r\n")
        let response = try normal.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "GET /fast ")
        // The idle ones are still open and can finish their requests.
        try idle[1].send("st: test\r\n\r\n")
        #expect(try idle[1].readResponse().text == "GET /slow ")
        #expect(running.stop())
        #expect(idle.count == 200)
    }
}
