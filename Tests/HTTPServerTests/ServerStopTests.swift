import Foundation
import Synchronization
import Testing
@testable import HTTPServer
import Platform

/// Hands a handler's responder to the test, which answers it when it chooses.
final class ResponderBox: Sendable {
    private let responders = Mutex<[HTTPResponder]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func keep(_ responder: HTTPResponder) {
        responders.withLock { $0.append(responder) }
        arrived.signal()
    }

    /// Waits (bounded) for the next responder.
    func next(waitingUpTo seconds: Double = 10) -> HTTPResponder? {
        guard arrived.wait(timeout: .now() + seconds) == .success else { return nil }
        return responders.withLock { $0.removeFirst() }
    }
}

@Suite struct ServerStopTests {
    @Test("stop lets a request in flight finish and be answered, closes idle connections, then run returns")
    func gracefulStop() throws {
        let box = ResponderBox()
        let running = try RunningServer { _, responder in box.keep(responder) }
        let idle = try TestClient(running.address)
        try idle.send("GET /warm HTTP/1.1\r\nHost: test\r\n\r\n")
        box.next()?.respond(HTTPResponse(status: 200, text: "warm"))
        #expect(try idle.readResponse().text == "warm")

        let busy = try TestClient(running.address)
        try busy.send("POST /hook HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\n\r\nhi")
        let responder = try #require(box.next())
        running.server.stop()
        // The idle connection is closed; the server does not return while the request is in flight.
        #expect(try idle.readUntilClosed().isEmpty)
        #expect(!running.waitForRunToReturn(upTo: 0.2))
        // Answered from another thread after stop: delivered with Connection: close.
        Thread { responder.respond(HTTPResponse(status: 201, text: "durable")) }.start()
        let response = try busy.readResponse()
        #expect(response.status == 201)
        #expect(response.text == "durable")
        #expect(response.headers["connection"] == "close")
        #expect(try busy.readUntilClosed().isEmpty)
        #expect(running.waitForRunToReturn(upTo: 30))
        // Nothing listens any more.
        #expect(throws: SocketError.self) { _ = try TestClient(running.address) }
    }

    @Test("stop before any connection makes run return at once, and a server runs only once")
    func stopWhenIdle() throws {
        let running = try RunningServer(handler: echoHandler)
        #expect(running.server.listeningLine == "{\"listening\":\"127.0.0.1:\(running.address.port)\"}")
        #expect(running.address.port != 0)
        #expect(running.stop())
        #expect(throws: HTTPServerError.self) { try running.server.run() }
    }

    @Test("a grace period that runs out closes connections whose handler never answers")
    func gracePeriod() throws {
        let box = ResponderBox()
        let running = try RunningServer(HTTPServer.Configuration(shutdownGracePeriod: .milliseconds(100))) { _, responder in box.keep(responder) }
        let client = try TestClient(running.address)
        try client.send("GET /never HTTP/1.1\r\nHost: test\r\n\r\n")
        let responder = try #require(box.next())
        #expect(running.stop())
        #expect(try client.readUntilClosed().isEmpty)
        // Answering after the server is gone is harmless.
        #expect(responder.respond(HTTPResponse(status: 200)))
    }
}
