import HardwareCRC32C

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum on every record frame.
///
/// The CPU's CRC-32C instruction when it has one (SSE 4.2, ARMv8 CRC), else software slice-by-8;
/// published check value: `CRC32C.checksum("123456789") == 0xE3069283`.
public enum CRC32C {
    /// Whether `checksum` uses the CPU's instruction (read once).
    public static let usesHardware = hardware_crc32c_available() != 0
    /// Eight 256-entry tables, flattened: table `k` lives at `k * 256`.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 {
                let prev = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    /// The CRC-32C of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard usesHardware, let base = bytes.baseAddress else { return softwareChecksum(bytes, continuing: crc) }
        return ~hardware_crc32c_update(~crc, base, bytes.count)
    }

    /// The CRC-32C of three buffers at once: on the CPU's instruction the three run as independent
    /// chains, about three times the speed of one after the other (a segment's frames are checked so).
    public static func checksums(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ c: UnsafeRawBufferPointer) -> (UInt32, UInt32, UInt32) {
        guard usesHardware, let pa = a.baseAddress, let pb = b.baseAddress, let pc = c.baseAddress else {
            return (checksum(a), checksum(b), checksum(c))
        }
        let s = hardware_crc32c_update3(hardware_crc32c_states(a: ~0, b: ~0, c: ~0), pa, a.count, pb, b.count, pc, c.count)
        return (~s.a, ~s.b, ~s.c)
    }

    /// The same checksum from the tables alone (the fallback, and the reference the instruction is tested against).
    static func softwareChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        guard var p = bytes.baseAddress else { return crc }
        var n = bytes.count
        tables.withUnsafeBufferPointer { tp in
            let t = tp.baseAddress!
            while n >= 8 {
                let lo = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) ^ c
                let hi = UInt32(littleEndian: (p + 4).loadUnaligned(as: UInt32.self))
                c = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                p += 8
                n &-= 8
            }
            while n > 0 {
                c = (c >> 8) ^ t[Int((c ^ UInt32(p.load(as: UInt8.self))) & 0xFF)]
                p += 1
                n &-= 1
            }
        }
        return ~c
    }

    /// The CRC-32C of a byte array.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// The CRC-32C of a string's UTF-8 bytes.
    public static func checksum(_ string: String) -> UInt32 {
        checksum(Array(string.utf8))
    }
}
