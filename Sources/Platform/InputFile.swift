#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read from its start in pieces, never whole (`-` is standard input): what `import`,
/// `partition` and `check-proof` read. Every failure is a `SystemError` with the path and errno.
public final class InputFile {
    /// The name it was opened by (`-` for standard input).
    public let path: String
    /// The descriptor, for waiting on it (`PlatformStream.wait`).
    public let descriptor: Int32

    /// Opens `path` for reading; `-` is standard input (never closed here).
    public init(_ path: String) throws {
        self.path = path
        if path == "-" { descriptor = 0; return }
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw SystemError.call("open", path: path, offset: nil, errno: errno) }
        descriptor = fd
    }

    deinit { if descriptor > 0 { close(descriptor) } }

    /// Reads up to `buffer.count` bytes into the start of `buffer`; 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemError.call("read", path: path, offset: nil, errno: errno) }
        }
    }
}
