import EventStore
import HTTPServer
import Synchronization
import Platform

/// serve's request log on stderr: each answered request's line gathered as the I/O thread logs
/// it, written by `flush` once per round of readiness (`HTTPServer.Configuration.requestLogFlush`),
/// so a busy server makes one write for many requests. A line that cannot be written is dropped,
/// never the request.
final class RequestLogLines: Sendable {
    private let pending = Mutex<[UInt8]>([])
    private let descriptor: Int32

    init(descriptor: Int32 = 2) { self.descriptor = descriptor }

    func add(_ entry: HTTPRequestLog) {
        pending.withLock { buffer in
            entry.appendJSONLine(to: &buffer)
            buffer.append(0x0A)
        }
    }

    func flush() {
        let bytes = pending.withLock { buffer -> [UInt8] in
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        guard !bytes.isEmpty else { return }
        try? bytes.withUnsafeBytes { try StandardStream.writeAll(descriptor, $0) }
    }
}
