import Foundation
import EventStore
import Platform

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

    /// Writes what is buffered and makes the file's data durable (fsync).
    mutating func sync() throws {
        try flush()
        guard fd >= 0 else { return }
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw Self.failure("fsync", path)
        }
    }

    /// Makes a folder's entries (a file just created in it) durable.
    static func syncFolder(_ path: String) throws {
        let dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw failure("open", path) }
        defer { _ = Foundation.close(dfd) }
        while fsync(dfd) != 0 {
            if errno == EINTR { continue }
            throw failure("fsync", path)
        }
    }

    mutating func close() {
        if fd >= 0 { _ = Foundation.close(fd) }
        fd = -1
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        try Self.writeAll(fd, bytes) { Self.failure($0, path) }
    }

    /// Writes all of `bytes` to `fd`, going on after short writes and EINTR; `failure` makes the
    /// error from the name of the call that failed.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, failure: (String) -> ToolError) throws {
        do {
            try StandardStream.writeAll(fd, bytes)
        } catch let e as SystemError {
            errno = e.errno ?? EIO   // what `failure` names
            throw failure("write")
        }
    }

    /// The one-line error of a failed system call on `path`, with errno's text.
    static func failure(_ call: String, _ path: String) -> ToolError {
        ToolError.input("\(path): cannot keep the rejected lines: \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))")
    }
}
