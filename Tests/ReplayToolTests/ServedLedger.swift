import Foundation
import Testing
import TestKit

/// A `replay-tool serve` process on 127.0.0.1 (a free port), with its own secrets, for tests
/// through real sockets. Stopped (SIGTERM, then waited for) when the test drops it.
final class ServedLedger: @unchecked Sendable {
    let scratch = Scratch()
    let process = Process()
    let address: String
    let port: UInt16
    let errors = Pipe()
    static let webhookSecret = "wh-secret-7f3a"
    static let apiKey = "api-key-91c2"

    init(profile: String = "howru", extra: [String] = [], log: String? = nil) throws {
        let secret = scratch.path + "/webhook.secret", key = scratch.path + "/api.key"
        try (Self.webhookSecret + "\n").write(toFile: secret, atomically: true, encoding: .utf8)
        try (Self.apiKey + "\n").write(toFile: key, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Tool.binary)
        process.arguments = ["serve", "--log", log ?? scratch.log, "--profile", profile, "--listen", "127.0.0.1:0",
                             "--webhook-secret-file", secret, "--api-key-file", key] + extra
        process.currentDirectoryURL = URL(fileURLWithPath: Tool.packageRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        // The first line says where it listens (read up to its newline, however it arrives).
        var line: [UInt8] = []
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let listening = object["listening"] as? String, let colon = listening.lastIndex(of: ":"),
              let port = UInt16(listening[listening.index(after: colon)...]) else {
            process.terminate()
            throw ServeFailure(description: "serve did not say where it listens: '\(text)' \(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
        }
        address = listening
        self.port = port
    }

    deinit { if process.isRunning { stop() } }

    /// What was read of stderr by `waitForLine` (given back by `stop`).
    private var stderrSoFar: [UInt8] = []

    /// Reads stderr until a line `matches` (returned), or it ends (nil). It blocks while the server
    /// is silent: suites that use it carry a time limit.
    func waitForLine(_ matches: (String) -> Bool) -> String? {
        var scanned = 0
        while true {
            while let newline = stderrSoFar[scanned...].firstIndex(of: 0x0A) {
                let line = String(decoding: stderrSoFar[scanned..<newline], as: UTF8.self)
                scanned = newline + 1
                if matches(line) { return line }
            }
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            stderrSoFar += chunk
        }
    }

    /// SIGTERM; returns the exit status and everything it wrote on stderr.
    @discardableResult
    func stop() -> (status: Int32, stderr: String) {
        process.terminate()
        let err = stderrSoFar + errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: err, as: UTF8.self))
    }

    /// One request on a new connection; the whole answer (the server closes or says its length).
    func request(_ method: String, _ path: String, token: String? = nil, body: String? = nil, headers: [String] = []) throws -> HTTPAnswer {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        for h in headers { text += h + "\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return try raw(Array(text.utf8))
    }

    /// Sends `bytes` on a new connection and reads until the server closes it.
    func raw(_ bytes: [UInt8], readAtMost: Int = 1 << 24) throws -> HTTPAnswer {
        let socket = try TestSocket(port: port)
        try socket.send(bytes)
        return HTTPAnswer(try socket.receiveAll(limit: readAtMost))
    }
}

struct ServeFailure: Error, CustomStringConvertible { let description: String }

/// A status line, headers and body, as the server sent them.
struct HTTPAnswer {
    var status = 0
    var headers: [String: String] = [:]
    var body = ""
    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return }
        let head = text[..<end.lowerBound].split(separator: "\r\n")
        status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") { headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        body = String(text[end.upperBound...])
    }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] }
}

/// A TCP connection to 127.0.0.1 with a receive timeout, so that no test waits forever.
final class TestSocket {
    let fd: Int32

    init(port: UInt16, timeoutSeconds: Int = 20) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeFailure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { close(fd); throw ServeFailure(description: "connect: errno \(errno)") }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; throw ServeFailure(description: "send: errno \(errno)") }
            done += n
        }
    }

    /// Reads until the peer closes (or `limit` bytes); a receive timeout is an error.
    func receiveAll(limit: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { break }
                throw ServeFailure(description: "recv: errno \(errno) after \(out.count) bytes")
            }
            out += chunk[0..<n]
        }
        return out
    }
}
