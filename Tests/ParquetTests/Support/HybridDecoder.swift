/// An RLE / bit-packing hybrid decoder for the tests, written from apache/parquet-format
/// Encodings.md: reads `count` values of `bitWidth` bits.
enum HybridDecoder {
    struct Failure: Error {}

    static func decode(_ bytes: [UInt8], bitWidth: Int, count: Int) throws -> [UInt32] {
        var out: [UInt32] = []
        var i = 0
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard i < bytes.count, shift < 64 else { throw Failure() }
                let b = bytes[i]
                i += 1
                result |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return result }
                shift += 7
            }
        }
        while out.count < count {
            let header = try varint()
            if header & 1 == 1 {
                let values = Int(header >> 1) * 8
                var acc: UInt64 = 0
                var bits = 0
                for _ in 0..<values {
                    while bits < bitWidth {
                        guard i < bytes.count else { throw Failure() }
                        acc |= UInt64(bytes[i]) << UInt64(bits)
                        i += 1
                        bits += 8
                    }
                    let v = UInt32(truncatingIfNeeded: acc & ((1 << UInt64(bitWidth)) - 1))
                    acc >>= UInt64(bitWidth)
                    bits -= bitWidth
                    if out.count < count { out.append(v) }
                }
            } else {
                let run = Int(header >> 1)
                var v: UInt32 = 0
                for b in 0..<((bitWidth + 7) / 8) {
                    guard i < bytes.count else { throw Failure() }
                    v |= UInt32(bytes[i]) << UInt32(8 * b)
                    i += 1
                }
                for _ in 0..<run where out.count < count { out.append(v) }
            }
        }
        guard i == bytes.count else { throw Failure() }
        return out
    }
}
