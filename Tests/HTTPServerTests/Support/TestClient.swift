import Foundation
import Glibc
@testable import HTTPServer
import Platform

/// A test's failure to get what it waited for.
struct ClientFailure: Error, CustomStringConvertible {
    let description: String
}

/// A response as read by the test client's own small reader (independent of the server's code).
struct TestResponse {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking client socket with a receive timeout, so no test can wait forever.
final class TestClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 65_536)

    init(_ address: SocketAddress, receiveTimeout: Double = 10) throws {
        descriptor = try SocketCalls.connect(to: address)
        try SocketCalls.setReceiveTimeout(descriptor, seconds: receiveTimeout)
        try SocketCalls.setSendTimeout(descriptor, seconds: receiveTimeout)
    }

    deinit { SocketCalls.close(descriptor) }

    func send(_ text: String) throws { try SocketCalls.writeAll(descriptor, Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws { try SocketCalls.writeAll(descriptor, bytes) }

    /// Reads more bytes; false at end of stream (or a reset). Throws when the receive timeout runs out.
    private func fill() throws -> Bool {
        do {
            switch try SocketCalls.read(descriptor, into: &scratch, count: scratch.count) {
            case .bytes(let count):
                buffer.append(contentsOf: scratch[0..<count])
                return true
            case .endOfStream:
                return false
            case .wouldBlock:
                throw ClientFailure(description: "receive timed out")
            }
        } catch let error as SocketError where error.errno == ECONNRESET {
            return false
        }
    }

    /// Reads one response (status line, headers, Content-Length body; no body if `headOnly`).
    func readResponse(headOnly: Bool = false) throws -> TestResponse {
        let blank: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while true {
            if buffer.count >= 4, let at = (0...(buffer.count - 4)).first(where: { Array(buffer[$0..<($0 + 4)]) == blank }) {
                headEnd = at + 4
                break
            }
            guard try fill() else { throw ClientFailure(description: "connection closed before a response head (\(buffer.count) bytes)") }
        }
        guard let headEnd else { throw ClientFailure(description: "no head") }
        let lines = String(decoding: buffer[0..<(headEnd - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw ClientFailure(description: "bad status line \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw ClientFailure(description: "bad header line \(line)") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headOnly || status == 100 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < headEnd + length {
            guard try fill() else { throw ClientFailure(description: "connection closed inside a body") }
        }
        let body = Array(buffer[headEnd..<(headEnd + length)])
        buffer.removeFirst(headEnd + length)
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// Reads until the server closes; returns what came. Throws if the receive timeout runs out first.
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }
}
