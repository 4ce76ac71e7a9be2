#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SignalPipe

/// The one place that talks to the operating system: open, pread, pwrite, fsync, flock, and for a
/// streaming import poll, the monotonic clock and signals (`PlatformStream`).
/// Every failure becomes an `EventStoreError` carrying the path, the offset and errno.
final class PlatformFile {
    let descriptor: Int32
    let path: String

    enum Mode { case readOnly, readWrite, createReadWrite, createTruncateNoFollow, appendNoFollow }

    init(path: String, mode: Mode) throws {
        let flags: Int32
        switch mode {
        case .readOnly: flags = O_RDONLY | O_CLOEXEC
        case .readWrite: flags = O_RDWR | O_CLOEXEC
        case .createReadWrite: flags = O_RDWR | O_CREAT | O_CLOEXEC
        // For outputs a person names: a link is not followed, and a FIFO's open does not wait for a reader.
        case .createTruncateNoFollow: flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        case .appendNoFollow: flags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        }
        var fd: Int32
        repeat { fd = open(path, flags, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw EventStoreError.system("open", path: path, offset: nil, errno: errno) }
        descriptor = fd
        self.path = path
    }

    deinit { close(descriptor) }

    /// The file's current size in bytes.
    func size() throws -> Int {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw EventStoreError.system("fstat", path: path, offset: nil, errno: errno) }
        return Int(st.st_size)
    }

    /// Whether the open file is a regular file (not a FIFO, device or socket).
    func isRegular() throws -> Bool {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw EventStoreError.system("fstat", path: path, offset: nil, errno: errno) }
        return (st.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads exactly `count` bytes at `offset` unless the file ends first; returns what was read.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw EventStoreError.system("pread", path: path, offset: offset + done, errno: errno)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads the byte range `offset ..< offset+count` (shorter if the file ends).
    func readBytes(at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { (b) throws -> Int in try read(into: b, at: offset) }
        if n < count { bytes.removeLast(count - n) }
        return bytes
    }

    /// Writes all of `bytes` at `offset`, looping over short writes and EINTR.
    func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw EventStoreError.system("pwrite", path: path, offset: offset + done, errno: errno)
            }
            done += n
        }
    }

    /// Flushes data to stable storage.
    func sync() throws {
        var r: Int32
        repeat { r = fdatasync(descriptor) } while r != 0 && errno == EINTR
        guard r == 0 else { throw EventStoreError.system("fdatasync", path: path, offset: nil, errno: errno) }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw EventStoreError.system("ftruncate", path: path, offset: length, errno: errno)
        }
    }

    /// Takes the advisory exclusive lock; `wait` false fails at once if another holder has it.
    func lockExclusive(wait: Bool) throws {
        var r: Int32
        repeat { r = flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) } while r != 0 && errno == EINTR
        if r != 0 {
            if errno == EWOULDBLOCK { throw EventStoreError(.locked, "another writer holds the log", path: path) }
            throw EventStoreError.system("flock", path: path, offset: nil, errno: errno)
        }
    }

    /// Releases the advisory lock.
    func unlock() { _ = flock(descriptor, LOCK_UN) }
}

/// Directory helpers.
public enum PlatformDirectory {
    /// Creates `path` (and parents) if missing.
    public static func create(_ path: String) throws {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST {
                throw EventStoreError.system("mkdir", path: partial, offset: nil, errno: errno)
            }
        }
    }

    /// The names in a directory (no `.` or `..`).
    public static func list(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw EventStoreError.system("opendir", path: path, offset: nil, errno: errno) }
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
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw EventStoreError.system("open", path: path, offset: nil, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw EventStoreError.system("fsync", path: path, offset: nil, errno: errno) }
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
    static func move(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else { throw EventStoreError.system("rename", path: to, offset: nil, errno: errno) }
    }

    /// Removes the file at `path`; nothing to do if there is none.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw EventStoreError.system("unlink", path: path, offset: nil, errno: errno) }
    }

    /// Reads a whole small file, or nil if it does not exist.
    public static func readFile(_ path: String) throws -> [UInt8]? {
        guard exists(path) else { return nil }
        let file = try PlatformFile(path: path, mode: .readOnly)
        return try file.readBytes(at: 0, count: try file.size())
    }
}

/// Standard output and error (and any descriptor a caller holds): the write-all loop, once.
public enum StandardStream {
    /// Writes all of `bytes` to `descriptor`, going on after short writes and EINTR; a failure is
    /// an `.io` error carrying errno (ENOSPC on a full disk, EPIPE on a closed pipe).
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw EventStoreError.system("write", path: descriptor == 1 ? "<stdout>" : descriptor == 2 ? "<stderr>" : "fd \(descriptor)", offset: done, errno: errno)
            }
            done += n
        }
    }
}

/// The wall clock in milliseconds since 1970, for `recorded` times.
func platformNowMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}

func platformErrorText(_ code: Int32) -> String { String(cString: strerror(code)) }

/// Process-wide settings a command-line tool makes once at start.
public enum PlatformProcess {
    /// Ignores SIGXFSZ, so a write past the file-size limit (`ulimit -f`) fails with EFBIG, which
    /// the append path rolls back and reports, instead of killing the process without a word.
    public static func ignoreFileSizeLimitSignal() {
        _ = signal(SIGXFSZ, SIG_IGN)
    }

    /// Ignores SIGPIPE, so a write to a closed pipe (`replay-tool export | head`) fails with EPIPE,
    /// which the command reports in one line and exit 1, instead of killing it without a word.
    public static func ignoreBrokenPipeSignal() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// This process's id.
    static var id: Int32 { getpid() }

    /// Whether a process with this id runs (or cannot be told apart from one that does).
    static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH)
    }
}

/// What a streaming reader waits on: its input, the signals that stop it, and the clock.
public enum PlatformStream {
    /// What `wait` saw first.
    public enum Ready: Equatable, Sendable {
        /// The input can be read without blocking: bytes, its end, or an error the read reports.
        case input
        /// A stop signal arrived (see `StopSignals`).
        case stop
        /// The time given passed with neither.
        case timeout
    }

    /// SIGTERM and SIGINT turned into a readable descriptor. The handler is C (the SignalPipe
    /// target): it only write(2)s the signal's number to a non-blocking self-pipe, saving errno,
    /// which is async-signal-safe; everything else happens when the reader polls the pipe.
    public struct StopSignals: Sendable {
        /// The pipe's read end (non-blocking, close-on-exec).
        public let descriptor: Int32

        /// Installs the handlers, once per process (the previous handlers are replaced).
        public static func install(_ signals: [Int32] = [SIGTERM, SIGINT]) throws -> StopSignals {
            let fd = signals.withUnsafeBufferPointer { signal_pipe_install($0.baseAddress, Int32($0.count)) }
            guard fd >= 0 else { throw EventStoreError.system("sigaction", path: "(signal handlers)", offset: nil, errno: errno) }
            return StopSignals(descriptor: fd)
        }

        /// The first signal that arrived and is not yet taken, if any (reads without blocking).
        public func take() -> Int32? {
            var byte: UInt8 = 0
            while true {
                let n = read(descriptor, &byte, 1)
                if n == 1 { return Int32(byte) }
                if n < 0 && errno == EINTR { continue }
                return nil
            }
        }

        /// The usual name of a stop signal (`SIGTERM`).
        public static func name(_ signal: Int32) -> String {
            switch signal {
            case SIGTERM: "SIGTERM"
            case SIGINT: "SIGINT"
            default: "signal \(signal)"
            }
        }
    }

    /// Waits until `input` is readable, `stop` is readable, or `timeoutMilliseconds` passed (a
    /// negative timeout waits without limit). A stop wins over input that is ready at the same
    /// time. An interrupted poll (EINTR) is restarted with the time left. `path` names the input
    /// in errors (`-` for standard input); an input that is not open is an error.
    public static func wait(input: Int32, stop: Int32?, timeoutMilliseconds: Int, path: String) throws -> Ready {
        let deadline = timeoutMilliseconds < 0 ? nil : monotonicNanoseconds() + UInt64(timeoutMilliseconds) * 1_000_000
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        if let stop { fds.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let now = monotonicNanoseconds()
                timeout = now >= deadline ? 0 : Int32(clamping: (deadline - now + 999_999) / 1_000_000)
            }
            for k in fds.indices { fds[k].revents = 0 }
            let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
            if n < 0 {
                if errno == EINTR { continue }
                throw EventStoreError.system("poll", path: path, offset: nil, errno: errno)
            }
            if fds.count > 1 && fds[1].revents != 0 { return .stop }
            let got = fds[0].revents
            if got & Int16(POLLNVAL) != 0 {
                throw EventStoreError.system("poll", path: path, offset: nil, errno: EBADF)
            }
            // POLLHUP (the writer closed) and POLLERR: a read tells which (0 bytes, or its errno).
            if got != 0 { return .input }
            if n == 0 { return .timeout }
        }
    }

    /// A clock that only goes forward (CLOCK_MONOTONIC), in nanoseconds, to time waits.
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
