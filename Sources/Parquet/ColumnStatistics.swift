/// The running bounds and null count of one column chunk, in the column's type order: signed for
/// integers, timestamps and decimals, false < true for booleans, unsigned byte-wise for strings.
struct ColumnStatistics {
    private(set) var nullCount: Int64 = 0
    private var intMin = Int64.max
    private var intMax = Int64.min
    private var hasInt = false
    private var seenFalse = false
    private var seenTrue = false
    private var bytesMin: [UInt8] = []
    private var bytesMax: [UInt8] = []
    private var hasBytes = false

    mutating func addNull() { nullCount += 1 }

    mutating func add(_ value: Int64) {
        hasInt = true
        if value < intMin { intMin = value }
        if value > intMax { intMax = value }
    }

    mutating func add(_ value: Bool) {
        if value { seenTrue = true } else { seenFalse = true }
    }

    /// Takes the string whose bytes are `range` of `buffer` into the bounds.
    mutating func addBytes(_ range: Range<Int>, of buffer: ByteBuffer) {
        if !hasBytes {
            hasBytes = true
            bytesMin = buffer.bytes(in: range)
            bytesMax = bytesMin
            return
        }
        if buffer.compare(range, with: bytesMin) < 0 {
            bytesMin = buffer.bytes(in: range)
        } else if buffer.compare(range, with: bytesMax) > 0 {
            bytesMax = buffer.bytes(in: range)
        }
    }

    /// The Thrift statistics for `type`; no bounds when every value was null, or when a string bound
    /// is longer than `byteLimit`.
    func encoded(for type: ParquetColumnType, byteLimit: Int) -> Statistics {
        var stats = Statistics(nullCount: nullCount, alsoDeprecatedBounds: type != .string)
        switch type {
        case .string:
            if hasBytes && bytesMin.count <= byteLimit && bytesMax.count <= byteLimit {
                stats.minValue = bytesMin
                stats.maxValue = bytesMax
            }
        case .int64, .timestampMicros, .decimal:
            if hasInt {
                stats.minValue = littleEndian(intMin)
                stats.maxValue = littleEndian(intMax)
            }
        case .boolean:
            if seenFalse || seenTrue {
                stats.minValue = [seenFalse ? 0 : 1]
                stats.maxValue = [seenTrue ? 1 : 0]
            }
        }
        return stats
    }

    private func littleEndian(_ value: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * Int64($0))) }
    }
}
