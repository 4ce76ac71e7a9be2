import Foundation

/// A file written through a 64 KiB buffer; a piece larger than the buffer is written directly.
struct BufferedFile {
    var fd: Int32 = -1
    var path = ""
    private var buffer: [UInt8] = []
    static let size = 1 << 16

    init() {}

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        buffer.reserveCapacity(Self.size)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.size { try flush() }
        if bytes.count >= Self.size { try writeAll(bytes) } else { buffer.append(contentsOf: bytes) }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() {
        if fd >= 0 { _ = Foundation.close(fd) }
        fd = -1
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure("write", path)
            }
            done += n
        }
    }

    /// The one-line error of a failed system call on `path`, with errno's text.
    static func failure(_ call: String, _ path: String) -> ToolError {
        ToolError.input("\(path): cannot keep the rejected lines: \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))")
    }
}
