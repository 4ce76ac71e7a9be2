#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Directory helpers.
public enum PlatformDirectory {
    /// Creates `path` (and parents) if missing.
    public static func create(_ path: String) throws {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            var r: Int32
            repeat { r = mkdir(partial, 0o755) } while r != 0 && errno == EINTR
            if r != 0 && errno != EEXIST {
                throw SystemError.call("mkdir", path: partial, offset: nil, errno: errno)
            }
        }
    }

    /// Creates the directory `path` (nothing if it exists); its parent must exist: a folder that
    /// was removed is not made again beneath it.
    public static func createChild(_ path: String) throws {
        var r: Int32
        repeat { r = mkdir(path, 0o755) } while r != 0 && errno == EINTR
        if r != 0 && errno != EEXIST {
            throw SystemError.call("mkdir", path: path, offset: nil, errno: errno)
        }
    }

    /// The names in a directory (no `.` or `..`).
    public static func list(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw SystemError.call("opendir", path: path, offset: nil, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Makes a directory's entries (a new segment file) durable.
    public static func sync(_ path: String) throws {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw SystemError.call("open", path: path, offset: nil, errno: errno) }
        defer { close(fd) }
        var r: Int32
        repeat { r = fsync(fd) } while r != 0 && errno == EINTR
        guard r == 0 else { throw SystemError.call("fsync", path: path, offset: nil, errno: errno) }
    }

    /// Whether the process may read `path`.
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether `path` is a directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Renames `from` over `to` (atomic within one file system).
    package static func move(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else { throw SystemError.call("rename", path: to, offset: nil, errno: errno) }
    }

    /// Removes the file at `path`; nothing to do if there is none.
    package static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw SystemError.call("unlink", path: path, offset: nil, errno: errno) }
    }

    /// Reads a whole small file, or nil if it does not exist.
    public static func readFile(_ path: String) throws -> [UInt8]? {
        guard exists(path) else { return nil }
        let file = try PlatformFile(path: path, mode: .readOnly)
        return try file.readBytes(at: 0, count: try file.size())
    }
}

