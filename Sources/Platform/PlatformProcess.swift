#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wall clock in milliseconds since 1970, for `recorded` times.
package func platformNowMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}

package func platformErrorText(_ code: Int32) -> String { String(cString: strerror(code)) }

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
    package static var id: Int32 { getpid() }

    /// Whether a process with this id runs (or cannot be told apart from one that does).
    package static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH)
    }
}

