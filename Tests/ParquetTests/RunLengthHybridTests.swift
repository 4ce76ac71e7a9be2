import Testing
@testable import Parquet

/// The RLE / bit-packing hybrid against apache/parquet-format Encodings.md, and a seeded round
/// trip through the tests' own decoder.
@Suite struct RunLengthHybridTests {
    private func encode(_ values: [UInt32], width: Int) -> [UInt8] {
        var out = ByteBuffer()
        RunLengthHybrid.encode(values, bitWidth: width, into: &out)
        return out.bytes
    }

    @Test("the spec's example: 0...7 at bit width 3 bit-pack to 10001000 11000110 11111010")
    func specExample() {
        // One group: header (1 << 1) | 1 = 0x03, then the three bytes Encodings.md shows.
        #expect(encode([0, 1, 2, 3, 4, 5, 6, 7], width: 3) == [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010])
    }

    @Test("eight or more equal values become an RLE run: header run << 1, value in ceil(width / 8) bytes")
    func rleRuns() {
        #expect(encode([UInt32](repeating: 1, count: 10), width: 1) == [0x14, 0x01])
        #expect(encode([UInt32](repeating: 0, count: 200), width: 1) == [0x90, 0x03, 0x00])
        #expect(encode([UInt32](repeating: 300, count: 8), width: 9) == [0x10, 0x2C, 0x01])
        #expect(encode([UInt32](repeating: 0x0102_0304, count: 9), width: 32) == [0x12, 0x04, 0x03, 0x02, 0x01])
    }

    @Test("a short tail is bit-packed and padded with zeros to a group of eight")
    func paddedTail() {
        // 1, 0, 1 at width 1: bits 101 LSB first = 0x05.
        #expect(encode([1, 0, 1], width: 1) == [0x03, 0x05])
        // Ten equal values then 0, 1: an RLE run of 10, then one padded group (0, 1 → 0x02).
        #expect(encode([UInt32](repeating: 1, count: 10) + [0, 1], width: 1) == [0x14, 0x01, 0x03, 0x02])
    }

    @Test("bit-packed runs are cut at 63 groups so the header stays one byte")
    func longLiteralRuns() {
        let values = (0..<(64 * 8)).map { UInt32($0 % 2) }
        let bytes = encode(values, width: 1)
        #expect(bytes[0] == 63 << 1 | 1)
        #expect(bytes[64] == 1 << 1 | 1)
        #expect(bytes.count == 1 + 63 + 1 + 1)
    }

    @Test("the bit width of dictionary indices: at least 1, else the bits of the largest index")
    func bitWidths() {
        #expect(RunLengthHybrid.bitWidth(forMax: 0) == 1)
        #expect(RunLengthHybrid.bitWidth(forMax: 1) == 1)
        #expect(RunLengthHybrid.bitWidth(forMax: 2) == 2)
        #expect(RunLengthHybrid.bitWidth(forMax: 255) == 8)
        #expect(RunLengthHybrid.bitWidth(forMax: 256) == 9)
        #expect(RunLengthHybrid.bitWidth(forMax: UInt32.max) == 32)
    }

    @Test("random runs and noise at every bit width decode back exactly (seeded)")
    func roundTrip() throws {
        let seed: UInt64 = 0x5EED_0001
        var random = SplitMix64(seed: seed)
        for width in 1...32 {
            for _ in 0..<20 {
                let limit: UInt64 = width == 32 ? UInt64(UInt32.max) : (1 << UInt64(width)) - 1
                var values: [UInt32] = []
                let count = Int(random.next() % 300)
                while values.count < count {
                    let v = UInt32(random.next() % (limit + 1))
                    let run = random.next() % 3 == 0 ? Int(random.next() % 40) + 1 : 1
                    values += [UInt32](repeating: v, count: min(run, count - values.count))
                }
                let decoded = try HybridDecoder.decode(encode(values, width: width), bitWidth: width, count: values.count)
                #expect(decoded == values, "seed \(seed), width \(width), values \(values)")
            }
        }
    }
}
