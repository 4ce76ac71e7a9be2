/// FNV-1a, 64-bit: a small, stable (unseeded) hash of bytes, for the id index and user partitions.
public enum FNV1a {
    /// The hash of `bytes`.
    @inline(__always)
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
