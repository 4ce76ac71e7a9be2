import Dispatch
import Foundation
@testable import HTTPServer
import Platform

/// A server on 127.0.0.1 and a free port, running on its own thread until `stop()`.
final class RunningServer: Sendable {
    let server: HTTPServer
    let address: SocketAddress
    private let finished = DispatchSemaphore(value: 0)

    init(_ configuration: HTTPServer.Configuration = HTTPServer.Configuration(), handler: @escaping HTTPServer.Handler) throws {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        server = HTTPServer(configuration: configuration, handler: handler)
        address = try server.start()
        let server = self.server
        let finished = self.finished
        Thread {
            do { try server.run() } catch { print("run() failed: \(error)") }
            finished.signal()
        }.start()
    }

    /// Stops the server and waits (at most `seconds`) for `run()` to return; true if it did.
    @discardableResult
    func stop(waitingUpTo seconds: Double = 30) -> Bool {
        server.stop()
        return finished.wait(timeout: .now() + seconds) == .success
    }

    /// Waits (at most `seconds`) for `run()` to return without asking it to stop.
    func waitForRunToReturn(upTo seconds: Double) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }
}

/// Echoes `METHOD path body` as text, with the query as `name=value` pairs on a second line.
let echoHandler: HTTPServer.Handler = { request, responder in
    var text = "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))"
    if !request.query.isEmpty { text += "\n" + request.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&") }
    responder.respond(HTTPResponse(status: 200, text: text))
}
