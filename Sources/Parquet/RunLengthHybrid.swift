/// The RLE / bit-packing hybrid of apache/parquet-format Encodings.md (RLE = 3): runs of eight or
/// more equal values as RLE runs, everything else as bit-packed groups of eight values, LSB first.
/// A last bit-packed group is padded with zeros; readers stop at the page's value count.
enum RunLengthHybrid {
    /// Bit-packed runs are cut at 63 groups (504 values) so their header stays one byte.
    static let maxGroupsPerRun = 63

    /// The bits needed for values up to `maxValue`, at least 1.
    static func bitWidth(forMax maxValue: UInt32) -> Int {
        maxValue == 0 ? 1 : 32 - maxValue.leadingZeroBitCount
    }

    /// Appends `values` (each below 2^bitWidth) encoded with `bitWidth` (1...32), without a length.
    static func encode<Value: FixedWidthInteger & UnsignedInteger>(_ values: [Value], bitWidth: Int, into out: inout ByteBuffer) {
        let n = values.count
        var i = 0
        var literalStart = 0
        var literalGroups = 0
        while i < n {
            let value = values[i]
            var run = 1
            while i + run < n && values[i + run] == value { run += 1 }
            if run >= 8 {
                flushLiterals(values, from: literalStart, groups: literalGroups, bitWidth: bitWidth, into: &out)
                literalGroups = 0
                writeVarint(UInt64(run) << 1, into: &out)
                let v = UInt64(value)
                for b in 0..<((bitWidth + 7) / 8) { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(b)))) }
                i += run
            } else {
                if literalGroups == 0 { literalStart = i }
                literalGroups += 1
                i += 8
                if literalGroups == maxGroupsPerRun {
                    flushLiterals(values, from: literalStart, groups: literalGroups, bitWidth: bitWidth, into: &out)
                    literalGroups = 0
                }
            }
        }
        flushLiterals(values, from: literalStart, groups: literalGroups, bitWidth: bitWidth, into: &out)
    }

    /// One bit-packed run: header `groups << 1 | 1`, then `groups * 8` values (zeros past the end).
    private static func flushLiterals<Value: FixedWidthInteger & UnsignedInteger>(_ values: [Value], from start: Int, groups: Int, bitWidth: Int, into out: inout ByteBuffer) {
        guard groups > 0 else { return }
        writeVarint(UInt64(groups) << 1 | 1, into: &out)
        var accumulator: UInt64 = 0
        var bits = 0
        let end = min(values.count, start + groups * 8)
        for k in start..<(start + groups * 8) {
            let v: UInt64 = k < end ? UInt64(values[k]) : 0
            accumulator |= v << UInt64(bits)
            bits += bitWidth
            while bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
        }
    }

    private static func writeVarint(_ value: UInt64, into out: inout ByteBuffer) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}
