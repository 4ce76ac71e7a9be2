#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
                throw SystemError.call("write", path: descriptor == 1 ? "<stdout>" : descriptor == 2 ? "<stderr>" : "fd \(descriptor)", offset: done, errno: errno)
            }
            done += n
        }
    }
}

