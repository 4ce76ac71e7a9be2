#if canImport(Glibc)
import Glibc
#endif

/// A failed socket system call: which call, about what (an address, a descriptor), and errno.
public struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed, e.g. `bind` or `accept4`.
    public let call: String
    /// The errno it left.
    public let errno: Int32
    /// What it was about (an address such as `127.0.0.1:8080`), if known.
    public let subject: String?

    /// Makes an error for `call` with `errno`, about `subject`.
    public init(call: String, errno: Int32, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// True when a receive or send timeout (SO_RCVTIMEO / SO_SNDTIMEO) ran out.
    public var isTimeout: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    /// One line: `bind 127.0.0.1:80 failed: Permission denied (errno 13)`.
    public var description: String {
        let about = subject.map { " \($0)" } ?? ""
        return "\(call)\(about) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
