#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock, for deadlines and request timings.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// A duration in whole nanoseconds (negative durations count as zero).
    public static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
