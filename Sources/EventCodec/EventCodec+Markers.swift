import SubscriptionDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EventCodec {
    /// Whether the canonical line `bytes` holds `marker` (non-empty; e.g. `canonicalTypeMarker`):
    /// each candidate first byte found by `memchr`, then compared. Readers use it to decode only
    /// the lines that can matter to them.
    public static func line(_ bytes: UnsafeRawBufferPointer, holds marker: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, let n = marker.baseAddress, !marker.isEmpty, marker.count <= bytes.count else { return false }
        let first = Int32(marker[0])
        var at = 0
        let last = bytes.count - marker.count
        while at <= last, let hit = memchr(base + at, first, last - at + 1) {
            if memcmp(hit, n, marker.count) == 0 { return true }
            at = base.distance(to: UnsafeRawPointer(hit)) + 1
        }
        return false
    }
}
