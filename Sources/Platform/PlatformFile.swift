#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that talks to the operating system: open, pread, pwrite, fsync, flock, and for a
/// streaming import poll, the monotonic clock and signals (`PlatformStream`).
/// Every failure becomes a `SystemError` carrying the path, the offset and errno.
package final class PlatformFile {
    package let descriptor: Int32
    package let path: String

    package enum Mode { case readOnly, readWrite, createReadWrite, createTruncateNoFollow, appendNoFollow }

    package init(path: String, mode: Mode) throws {
        let flags: Int32
        switch mode {
        // O_NONBLOCK: opening a FIFO found where a file was expected does not wait for a writer
        // (reads of regular files are not affected; a FIFO's pread then fails: ESPIPE).
        case .readOnly: flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        case .readWrite: flags = O_RDWR | O_CLOEXEC
        case .createReadWrite: flags = O_RDWR | O_CREAT | O_CLOEXEC
        // For outputs a person names: a link is not followed, and a FIFO's open does not wait for a reader.
        case .createTruncateNoFollow: flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        case .appendNoFollow: flags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        }
        var fd: Int32
        repeat { fd = open(path, flags, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw SystemError.call("open", path: path, offset: nil, errno: errno) }
        descriptor = fd
        self.path = path
    }

    deinit { close(descriptor) }

    /// The file's current size in bytes.
    package func size() throws -> Int {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw SystemError.call("fstat", path: path, offset: nil, errno: errno) }
        return Int(st.st_size)
    }

    /// Whether the open file is a regular file (not a FIFO, device or socket).
    package func isRegular() throws -> Bool {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw SystemError.call("fstat", path: path, offset: nil, errno: errno) }
        return (st.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads exactly `count` bytes at `offset` unless the file ends first; returns what was read.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.call("pread", path: path, offset: offset + done, errno: errno)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads the byte range `offset ..< offset+count` (shorter if the file ends).
    package func readBytes(at offset: Int, count: Int) throws -> [UInt8] {
        // Not zeroed first: only the bytes read are kept (a large read is not written twice).
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = try read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
        }
    }

    /// Writes all of `bytes` at `offset`, looping over short writes and EINTR.
    package func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.call("pwrite", path: path, offset: offset + done, errno: errno)
            }
            done += n
        }
    }

    /// Flushes data to stable storage.
    package func sync() throws {
        var r: Int32
        repeat { r = fdatasync(descriptor) } while r != 0 && errno == EINTR
        guard r == 0 else { throw SystemError.call("fdatasync", path: path, offset: nil, errno: errno) }
    }

    /// Cuts the file to `length` bytes.
    package func truncate(to length: Int) throws {
        var r: Int32
        repeat { r = ftruncate(descriptor, off_t(length)) } while r != 0 && errno == EINTR
        guard r == 0 else {
            throw SystemError.call("ftruncate", path: path, offset: length, errno: errno)
        }
    }

    /// Takes the advisory exclusive lock; `wait` false fails at once if another holder has it.
    package func lockExclusive(wait: Bool) throws {
        var r: Int32
        repeat { r = flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) } while r != 0 && errno == EINTR
        if r != 0 {
            if errno == EWOULDBLOCK { throw SystemError(.locked, "another writer holds the log", path: path) }
            throw SystemError.call("flock", path: path, offset: nil, errno: errno)
        }
    }

    /// Releases the advisory lock.
    package func unlock() { _ = flock(descriptor, LOCK_UN) }
}

