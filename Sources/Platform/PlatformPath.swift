#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path operations done here rather than with Foundation's path helpers (which trap on some strings).
public enum PlatformPath {
    /// What a name is, without following a symbolic link.
    public enum Kind: Equatable, Sendable, CustomStringConvertible {
        case missing, regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

        public var description: String {
            switch self {
            case .missing: "missing"
            case .regular: "a regular file"
            case .directory: "a folder"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO (named pipe)"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .other: "not a regular file"
            }
        }
    }

    /// The kind of the node at `path` (lstat: a link is a link).
    public static func kind(_ path: String) -> Kind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .fifo
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// The folder holding `path`: `.` for a bare name, `/` for a name in the root; trailing
    /// slashes are not part of the name. Never traps, whatever the string.
    public static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == 0x2F { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: 0x2F) else { return "." }
        var end = slash
        while end > 0 && bytes[end - 1] == 0x2F { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Why the process may not run the file at `path` (the system's words), or nil if it may.
    public static func cannotExecute(_ path: String) -> String? {
        access(path, X_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// `folder/name`, without doubling a slash.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
