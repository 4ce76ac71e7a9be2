import Foundation
import EventStore
import Platform

/// A file `import` reads in pieces (`-`: standard input), never whole.
struct InputFile {
    let path: String
    private var fd: Int32

    /// Opens `path` for reading; `-` is standard input.
    init(_ path: String) throws {
        self.path = path
        if path == "-" { fd = 0; return }
        try Self.check(path)
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure("open", path) }
    }

    /// Refuses a path that is missing, a folder or unreadable, before anything is imported.
    static func check(_ path: String) throws {
        if path == "-" { return }
        guard PlatformDirectory.exists(path), PlatformDirectory.isReadable(path) else {
            throw ToolError.input("\(path): cannot read (no such file or not readable)")
        }
        guard !PlatformDirectory.isDirectory(path) else { throw ToolError.input("\(path): a folder, not a file of JSON Lines") }
    }

    /// Reads up to `buffer.count` bytes into the start of `buffer`; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Foundation.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw Self.failure("read", path) }
        }
    }

    func close() {
        if fd > 0 { _ = Foundation.close(fd) }
    }

    static func failure(_ call: String, _ path: String) -> ToolError {
        ToolError.input("\(path): cannot read: \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))")
    }
}
