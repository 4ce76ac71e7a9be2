// The load generator of the HTTP benchmarks: keep-alive connections driven from one thread each
// with epoll, one request outstanding per connection, latencies measured per request.
import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Platform

public func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One keep-alive connection of the load generator: one request outstanding at a time.
public final class LoadConnection {
    public let descriptor: Int32
    var buffer: [UInt8] = []
    var sentAt: UInt64 = 0
    /// The first status line other than 200 seen, for the report.
    nonisolated(unsafe) static var firstFailure: String?

    public init(_ address: SocketAddress) throws {
        descriptor = try SocketCalls.connect(to: address)
        try SocketCalls.setNoDelay(descriptor)
    }

    deinit { SocketCalls.close(descriptor) }

    /// Sends one request and waits for its response; returns its status.
    public func ask(_ request: [UInt8]) throws -> Int {
        try SocketCalls.writeAll(descriptor, request)
        var scratch = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let status = takeResponse() { return status }
            guard case .bytes(let n) = try SocketCalls.read(descriptor, into: &scratch, count: scratch.count) else {
                throw SocketError(call: "bench: server closed", errno: 104)
            }
            buffer += scratch[0..<n]
        }
    }

    /// Removes one complete response from the buffer if there is one; returns its status, or nil.
    func takeResponse() -> Int? {
        guard buffer.count >= 4 else { return nil }
        var headEnd = -1
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            headEnd = i + 4
            break
        }
        guard headEnd > 0 else { return nil }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self).lowercased()
        var length = 0
        if let range = head.range(of: "content-length:") {
            length = Int(head[range.upperBound...].prefix { $0 != "\r" }.trimmingCharacters(in: .whitespaces)) ?? 0
        }
        guard buffer.count >= headEnd + length else { return nil }
        // The status line (a peer that writes its body in a second packet may leave it ahead of the next head).
        let statusLine = head.range(of: "http/1.").map { head[$0.lowerBound...] } ?? head[...]
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        if status != 200 && Self.firstFailure == nil { Self.firstFailure = String(head.prefix(200)) + String(decoding: buffer[headEnd..<(headEnd + min(length, 200))], as: UTF8.self) }
        buffer.removeFirst(headEnd + length)
        return status
    }
}

/// What one driven run measured.
public struct LoadResult: Sendable {
    public var latencies: [UInt64] = []
    public var failures = 0
}

/// Drives `count` keep-alive connections from one thread until `deadline`; `request(connection,
/// sequence)` makes each request's bytes. Latencies (ns) of requests sent after `warmUntil`.
public func drive(_ address: SocketAddress, connections count: Int, warmUntil: UInt64, deadline: UInt64,
                  request: (Int, Int) -> [UInt8]) throws -> LoadResult {
    let poll = try SocketCalls.makeEventPoll()
    defer { SocketCalls.close(poll) }
    var connections: [LoadConnection] = []
    for index in 0..<count {
        let connection = try LoadConnection(address)
        try SocketCalls.add(connection.descriptor, to: poll, interest: .readable, token: UInt64(index))
        connections.append(connection)
    }
    var result = LoadResult()
    result.latencies.reserveCapacity(1_000_000)
    var events = [PollEvent](repeating: PollEvent(), count: 256)
    var scratch = [UInt8](repeating: 0, count: 65_536)
    var outstanding = 0
    var sequence = 0
    for (index, connection) in connections.enumerated() {
        connection.sentAt = nanoseconds()
        try SocketCalls.writeAll(connection.descriptor, request(index, sequence))
        sequence += 1
        outstanding += 1
    }
    while outstanding > 0 {
        let ready = try SocketCalls.wait(poll: poll, into: &events, timeoutMilliseconds: 1_000)
        let now = nanoseconds()
        if ready == 0 && now > deadline + 5_000_000_000 { throw SocketError(call: "bench: no answer", errno: 110) }
        for index in 0..<ready {
            let slot = Int(events[index].token)
            let connection = connections[slot]
            guard case .bytes(let n) = try SocketCalls.read(connection.descriptor, into: &scratch, count: scratch.count) else {
                throw SocketError(call: "bench: server closed", errno: 104)
            }
            connection.buffer += scratch[0..<n]
            while let status = connection.takeResponse() {
                outstanding -= 1
                if status != 200 { result.failures += 1 }
                if connection.sentAt >= warmUntil { result.latencies.append(now - connection.sentAt) }
                if now < deadline {
                    connection.sentAt = now
                    try SocketCalls.writeAll(connection.descriptor, request(slot, sequence))
                    sequence += 1
                    outstanding += 1
                }
            }
        }
    }
    return result
}

/// Runs the load for `seconds` (after half a second of warm-up) and prints one line.
public func measure(_ name: String, _ address: SocketAddress, connections: Int, seconds: Double, clientThreads: Int = 1,
                    request: @escaping @Sendable (Int, Int) -> [UInt8]) throws {
    let start = nanoseconds()
    let warmUntil = start + 500_000_000
    let deadline = warmUntil + UInt64(seconds * 1e9)
    let results = Mutex<LoadResult>(LoadResult())
    let failures = Mutex<[String]>([])
    let group = DispatchGroup()
    let perThread = connections / clientThreads
    for thread in 0..<clientThreads {
        let count = thread == clientThreads - 1 ? connections - perThread * thread : perThread
        group.enter()
        Thread {
            do {
                let r = try drive(address, connections: count, warmUntil: warmUntil, deadline: deadline) { c, s in request(thread * perThread + c, s * clientThreads + thread) }
                results.withLock { $0.latencies += r.latencies; $0.failures += r.failures }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            group.leave()
        }.start()
    }
    group.wait()
    if let failure = failures.withLock({ $0.first }) { print("\(name): failed: \(failure)"); return }
    let result = results.withLock { $0 }
    let latencies = result.latencies.sorted()
    guard !latencies.isEmpty else { print("\(name): no requests completed"); return }
    func percentile(_ p: Double) -> Double { Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) / 1_000 }
    let rate = Double(latencies.count) / seconds
    print(String(format: "%@: %d connections, %.0f requests/s, p50 %.0f µs, p99 %.0f µs, max %.0f µs (%d requests in %.1f s, %d not 200)",
                 name, connections, rate, percentile(0.50), percentile(0.99), Double(latencies.last ?? 0) / 1_000,
                 latencies.count, seconds, result.failures))
    if let first = LoadConnection.firstFailure { print("  first answer other than 200: \(first.replacingOccurrences(of: "\r\n", with: " | "))") }
    LoadConnection.firstFailure = nil
}
