#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes from the operating system's cryptographic random source, for key generation.
///
/// On Linux this is glibc's getentropy(3), a wrapper of getrandom(2) that reads the urandom
/// source and blocks only until the kernel's pool is first seeded; Darwin has the same call.
public enum SecureRandom {
    /// The operating system refused randomness.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// How many bytes were asked for.
        public var requested: Int
        /// The errno of the failed call.
        public var errno: Int32

        public var description: String {
            "the system's random source (getentropy/getrandom) failed for \(requested) bytes: errno \(errno)"
        }
    }

    /// `count` random bytes.
    public static func bytes(count: Int) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(0, count))
        var offset = 0
        while offset < out.count {
            // getentropy serves at most 256 bytes a call.
            let chunk = min(256, out.count - offset)
            let status = out.withUnsafeMutableBytes { fill($0.baseAddress.map { $0 + offset }, chunk) }
            guard status == 0 else { throw Failure(requested: count, errno: status) }
            offset += chunk
        }
        return out
    }

    /// The one system call: fills `count` (at most 256) bytes at `pointer`; 0 or an errno.
    private static func fill(_ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int32 {
        getentropy(pointer, count) == 0 ? 0 : errno
    }
}
