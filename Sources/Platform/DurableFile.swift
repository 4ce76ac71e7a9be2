/// Files replaced atomically and durably (write a temporary file, fsync, rename, fsync the folder):
/// a reader sees the old content or the new, never a mix. Used for projection checkpoints.
public enum DurableFile {
    /// Replaces the file at `path` with `bytes`, creating its folder if needed.
    public static func replace(path: String, with bytes: [UInt8]) throws {
        let replacement = try Replacement(path: path)
        try bytes.withUnsafeBytes { try replacement.append($0) }
        try replacement.commit()
    }

    /// The file's bytes, or nil if there is no file.
    public static func read(path: String) throws -> [UInt8]? { try PlatformDirectory.readFile(path) }

    /// Removes the file at `path` (a cache found damaged); nothing to do if there is none.
    public static func remove(path: String) throws { try PlatformDirectory.remove(path) }

    /// A replacement written in pieces to a temporary file of its own (`path.tmp-PID-RANDOM`, so
    /// concurrent writers never share one); `commit()` makes it durable and puts it in place. Until
    /// then (or if the process dies) the file at `path` is the old one. A replacement dropped without
    /// a commit (a failed write: a full disk) removes its temporary file, and a new one removes those
    /// left by processes that no longer run.
    public final class Replacement {
        let path: String
        let file: PlatformFile
        private var committed = false
        /// Bytes written so far.
        public private(set) var length = 0

        /// Opens the temporary file beside `path`; `createFolder` makes the folder first if it is missing.
        public init(path: String, createFolder: Bool = true) throws {
            self.path = path
            let parent = Self.parent(of: path)
            if createFolder && !parent.isEmpty { try PlatformDirectory.create(parent) }
            Self.removeAbandonedTemporaries(of: path)
            file = try PlatformFile(path: path + Self.temporarySuffix + "\(PlatformProcess.id)-\(UInt32.random(in: 0...UInt32.max))", mode: .createReadWrite)
            try file.truncate(to: 0)
        }

        deinit {
            if !committed { try? PlatformDirectory.remove(file.path) }
        }

        /// Appends `bytes` to the temporary file.
        public func append(_ bytes: UnsafeRawBufferPointer) throws {
            try file.writeAll(bytes, at: length)
            length += bytes.count
        }

        /// Writes `bytes` at `offset` of the temporary file, leaving `length` as it is: for a file
        /// laid out in advance whose pieces are written side by side, each thread at its own offsets.
        public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
            try file.writeAll(bytes, at: offset)
        }

        /// Flushes the temporary file, renames it over `path` and makes the rename durable.
        public func commit() throws {
            try file.sync()
            try PlatformDirectory.move(file.path, to: path)
            committed = true
            try PlatformDirectory.sync(PlatformPath.parent(of: path))
        }

        static let temporarySuffix = ".tmp-"

        /// Removes `path.tmp-PID-*` files whose process is gone (killed while writing).
        static func removeAbandonedTemporaries(of path: String) {
            let parent = parent(of: path)
            let prefix = String(path.dropFirst(parent.isEmpty ? 0 : parent.count + 1)) + temporarySuffix
            guard let names = try? PlatformDirectory.list(parent.isEmpty ? "." : parent) else { return }
            for name in names where name.hasPrefix(prefix) {
                guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), !PlatformProcess.isRunning(pid) else { continue }
                try? PlatformDirectory.remove((parent.isEmpty ? "" : parent + "/") + name)
            }
        }

        package static func parent(of path: String) -> String {
            path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        }
    }

    /// A file read from its start to its end in pieces.
    public final class Source {
        let file: PlatformFile
        /// The file's size when opened.
        public let size: Int
        /// Bytes read so far.
        public private(set) var offset = 0

        /// Opens the file at `path`, or nil if there is none; a FIFO, device or folder there is
        /// refused (`unsuitableFile`), never waited on or read without end.
        public init?(path: String) throws {
            guard PlatformDirectory.exists(path) else { return nil }
            file = try PlatformFile(path: path, mode: .readOnly)
            guard try file.isRegular() else {
                throw SystemError(.unsuitableFile, "is not a regular file; a kept file is read from a regular file only", path: path)
            }
            size = try file.size()
        }

        /// Reads the next bytes into `buffer` (fewer only at the end); returns how many.
        public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let n = try file.read(into: buffer, at: offset)
            offset += n
            return n
        }
    }
}
