/// Little-endian integers in the derived files' headers.
enum LittleEndian {
    /// Appends `value`'s 8 bytes, least significant first.
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends `value`'s 4 bytes, least significant first.
    static func append(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// The 8-byte value at `offset` of `bytes` (which must hold it).
    static func uint64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    /// The 4-byte value at `offset` of `bytes` (which must hold it).
    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for i in (0..<4).reversed() { value = value << 8 | UInt32(bytes[offset + i]) }
        return value
    }
}
