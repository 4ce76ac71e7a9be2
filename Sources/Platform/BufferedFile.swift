#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written from its start through a 64 KiB buffer (a piece larger than the buffer goes
/// straight to the file), for outputs written as they are found, such as rejected lines. Every
/// failure is a `SystemError` with the path and errno; `sync()` makes what was written durable.
public final class BufferedFile {
    /// Where the file is.
    public let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    static let size = 1 << 16

    /// Creates the file at `path`: with `exclusive`, only if no file has that name (else the
    /// error's errno is EEXIST); without, replacing the bytes of one that does.
    public init(creating path: String, exclusive: Bool) throws {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC)
        var fd: Int32
        repeat { fd = open(path, flags, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw SystemError.call("open", path: path, offset: nil, errno: errno) }
        self.path = path
        descriptor = fd
        buffer.reserveCapacity(Self.size)
    }

    deinit { close(descriptor) }

    /// Appends `bytes` (buffered).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.size { try flush() }
        if bytes.count >= Self.size { try writeAll(bytes) } else { buffer.append(contentsOf: bytes) }
    }

    /// Writes what is buffered to the file.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and makes the file's data durable (fsync).
    public func sync() throws {
        try flush()
        var r: Int32
        repeat { r = fsync(descriptor) } while r != 0 && errno == EINTR
        guard r == 0 else { throw SystemError.call("fsync", path: path, offset: nil, errno: errno) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try StandardStream.writeAll(descriptor, bytes)
        } catch var e as SystemError {
            e.path = path
            e.offset = nil
            throw e
        }
    }
}
