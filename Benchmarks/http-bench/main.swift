// http-bench: keep-alive GET throughput and latency of HTTPServer with a trivial handler, driven
// by a load generator in the same process; then the same load against Python's http.server
// (ThreadingHTTPServer, HTTP/1.1, TCP_NODELAY) as a peer, if python3 is on PATH.
// Run: swift run -c release http-bench [--seconds 5] [--connections 32] [--client-threads 1] [--workers 2] [--idle 0] [--no-python]
// --idle N holds N more connections open and silent (half of them mid-head) during the run.
import Foundation
import HTTPServer
import Synchronization

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

func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One keep-alive connection of the load generator: one request outstanding at a time.
final class LoadConnection {
    let descriptor: Int32
    var buffer: [UInt8] = []
    var sentAt: UInt64 = 0

    init(_ address: SocketAddress) throws {
        descriptor = try SocketCalls.connect(to: address)
        try SocketCalls.setNoDelay(descriptor)
    }

    deinit { SocketCalls.close(descriptor) }

    /// Removes one complete response from the buffer if there is one; returns whether it did.
    func takeResponse() -> Bool {
        guard buffer.count >= 4 else { return false }
        var headEnd = -1
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            headEnd = i + 4
            break
        }
        guard headEnd > 0 else { return false }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self).lowercased()
        var length = 0
        if let range = head.range(of: "content-length:") {
            length = Int(head[range.upperBound...].prefix { $0 != "\r" }.trimmingCharacters(in: .whitespaces)) ?? 0
        }
        guard buffer.count >= headEnd + length else { return false }
        buffer.removeFirst(headEnd + length)
        return true
    }
}

/// Drives `connections` keep-alive connections from one thread until `deadline`; returns latencies in ns.
func drive(_ address: SocketAddress, connections count: Int, warmUntil: UInt64, deadline: UInt64) throws -> [UInt64] {
    let request = Array("GET /v1/entitlements?user=u_1 HTTP/1.1\r\nHost: bench\r\n\r\n".utf8)
    let poll = try SocketCalls.makeEventPoll()
    defer { SocketCalls.close(poll) }
    var connections: [LoadConnection] = []
    for index in 0..<count {
        let connection = try LoadConnection(address)
        try SocketCalls.add(connection.descriptor, to: poll, interest: .readable, token: UInt64(index))
        connections.append(connection)
    }
    var latencies: [UInt64] = []
    latencies.reserveCapacity(1_000_000)
    var events = [PollEvent](repeating: PollEvent(), count: 256)
    var scratch = [UInt8](repeating: 0, count: 65_536)
    var outstanding = 0
    for connection in connections {
        connection.sentAt = nanoseconds()
        try SocketCalls.writeAll(connection.descriptor, request)
        outstanding += 1
    }
    while outstanding > 0 {
        let ready = try SocketCalls.wait(poll: poll, into: &events, timeoutMilliseconds: 1_000)
        let now = nanoseconds()
        if ready == 0 && now > deadline + 5_000_000_000 { throw SocketError(call: "bench: no answer", errno: 110) }
        for index in 0..<ready {
            let connection = connections[Int(events[index].token)]
            guard case .bytes(let n) = try SocketCalls.read(connection.descriptor, into: &scratch, count: scratch.count) else {
                throw SocketError(call: "bench: server closed", errno: 104)
            }
            connection.buffer += scratch[0..<n]
            while connection.takeResponse() {
                outstanding -= 1
                if connection.sentAt >= warmUntil { latencies.append(now - connection.sentAt) }
                if now < deadline {
                    connection.sentAt = now
                    try SocketCalls.writeAll(connection.descriptor, request)
                    outstanding += 1
                }
            }
        }
    }
    return latencies
}

/// Runs the load against `address` and prints one line.
func measure(_ name: String, _ address: SocketAddress, _ options: Options) throws {
    let start = nanoseconds()
    let warmUntil = start + 500_000_000
    let deadline = warmUntil + UInt64(options.seconds * 1e9)
    let results = Mutex<[UInt64]>([])
    let failures = Mutex<[String]>([])
    let group = DispatchGroup()
    let perThread = options.connections / options.clientThreads
    for thread in 0..<options.clientThreads {
        let count = thread == options.clientThreads - 1 ? options.connections - perThread * thread : perThread
        group.enter()
        Thread {
            do {
                let latencies = try drive(address, connections: count, warmUntil: warmUntil, deadline: deadline)
                results.withLock { $0 += latencies }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            group.leave()
        }.start()
    }
    group.wait()
    if let failure = failures.withLock({ $0.first }) { print("\(name): failed: \(failure)"); return }
    let latencies = results.withLock { $0 }.sorted()
    guard !latencies.isEmpty else { print("\(name): no requests completed"); return }
    func percentile(_ p: Double) -> Double { Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) / 1_000 }
    let rate = Double(latencies.count) / options.seconds
    print(String(format: "%@: %d connections, %.0f requests/s, p50 %.0f µs, p99 %.0f µs, max %.0f µs (%d requests in %.1f s)",
                 name, options.connections, rate, percentile(0.50), percentile(0.99), Double(latencies.last ?? 0) / 1_000,
                 latencies.count, options.seconds))
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
try measure("HTTPServer (\(options.workers) workers\(idleNote))", address, options)
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
            try measure("python3 http.server (ThreadingHTTPServer, HTTP/1.1, TCP_NODELAY)", SocketAddress(host: "127.0.0.1", port: port), options)
        } else {
            print("python3 http.server: could not read its port")
        }
        process.terminate()
        process.waitUntilExit()
    } catch {
        print("python3 http.server: skipped (\(error))")
    }
}
