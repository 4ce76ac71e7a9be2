// http-bench: keep-alive GET throughput and latency of HTTPServer with a trivial handler, driven
// by a load generator in the same process; then the same load against Python's http.server
// (ThreadingHTTPServer, HTTP/1.1, TCP_NODELAY) as a peer, if python3 is on PATH.
// Run: swift run -c release http-bench [--seconds 5] [--connections 32] [--client-threads 1] [--workers 2] [--idle 0] [--no-python]
// --idle N holds N more connections open and silent (half of them mid-head) during the run.
import Foundation
import HTTPServer
import LoadGenerator
import Synchronization
import Platform

struct Options {
    var seconds = 5.0
    var connections = 32
    var clientThreads = 1
    var workers = 2
    var python = true
    var idle = 0

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--seconds": seconds = iterator.next().flatMap(Double.init) ?? seconds
            case "--connections": connections = iterator.next().flatMap(Int.init) ?? connections
            case "--client-threads": clientThreads = iterator.next().flatMap(Int.init) ?? clientThreads
            case "--workers": workers = iterator.next().flatMap(Int.init) ?? workers
            case "--no-python": python = false
            case "--idle": idle = iterator.next().flatMap(Int.init) ?? idle
            default: print("unknown argument \(argument)"); exit(2)
            }
        }
    }
}

let pythonServer = """
import http.server, sys
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer.request_queue_size = 128
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""

let options = Options(CommandLine.arguments)
let request = Array("GET /v1/entitlements?user=u_1 HTTP/1.1\r\nHost: bench\r\n\r\n".utf8)
let server = HTTPServer(configuration: HTTPServer.Configuration(workerThreads: options.workers)) { _, responder in
    responder.respond(HTTPResponse(status: 200, text: "ok"))
}
let address = try server.start()
print(server.listeningLine ?? "")
let finished = DispatchSemaphore(value: 0)
Thread {
    do { try server.run() } catch { print("server: \(error)") }
    finished.signal()
}.start()
var idleConnections: [LoadConnection] = []
for index in 0..<options.idle {
    let connection = try LoadConnection(address)
    if index % 2 == 1 { try SocketCalls.writeAll(connection.descriptor, Array("GET /slow HTTP/1.1\r\nHo".utf8)) }
    idleConnections.append(connection)
}
let idleNote = options.idle > 0 ? ", \(options.idle) idle connections open" : ""
try measure("HTTPServer (\(options.workers) workers\(idleNote))", address, connections: options.connections, seconds: options.seconds, clientThreads: options.clientThreads) { _, _ in request }
idleConnections.removeAll()
server.stop()
_ = finished.wait(timeout: .now() + 30)

if options.python {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", pythonServer]
    let output = Pipe()
    process.standardOutput = output
    do {
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { line.append(byte) }
        if let port = UInt16(String(decoding: line, as: UTF8.self)) {
            try measure("python3 http.server (ThreadingHTTPServer, HTTP/1.1, TCP_NODELAY)", SocketAddress(host: "127.0.0.1", port: port), connections: options.connections, seconds: options.seconds, clientThreads: options.clientThreads) { _, _ in request }
        } else {
            print("python3 http.server: could not read its port")
        }
        process.terminate()
        process.waitUntilExit()
    } catch {
        print("python3 http.server: skipped (\(error))")
    }
}
