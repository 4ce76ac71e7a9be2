/// A failure met talking to the operating system, with where it happened: the call, the path,
/// the byte offset and errno. Its description is one line, `path@offset: message`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable {
        /// A system call failed (a full disk, a permission, a closed pipe...); `errno` says which.
        case failed
        /// Another holder has the advisory lock asked for without waiting.
        case locked
        /// A file named for output is not one this tool writes (a link, a device, a folder...).
        case unsuitableFile
    }

    public var code: Code
    public var message: String
    public var path: String?
    public var offset: Int?
    /// The operating system's error number, for a failed system call.
    public var errno: Int32?

    public init(_ code: Code, _ message: String, path: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.offset = offset
    }

    /// The failure of system call `call` on `path` (at `offset`), with errno's text.
    package static func call(_ call: String, path: String, offset: Int?, errno: Int32) -> SystemError {
        var e = SystemError(.failed, "\(call) failed: \(platformErrorText(errno)) (errno \(errno))", path: path, offset: offset)
        e.errno = errno
        return e
    }

    /// One line: `path@offset: message`.
    public var description: String {
        var place = path ?? ""
        if let offset { place += "@\(offset)" }
        return place.isEmpty ? message : "\(place): \(message)"
    }
}

/// An error that says in one line where it happened (a path, an offset, a position): the errors
/// of the files and the log. A command adds what it was doing and prints it as it is.
public protocol LocatedError: Error, CustomStringConvertible {}

extension SystemError: LocatedError {}
