import Testing
@testable import SubscriptionDomain
@testable import EventCodec

/// The encoder writes strings, money and integers without building Strings (for bulk
/// import): each fast path writes exactly the bytes of the plain form it replaced.
@Suite struct EncoderFastPaths {
    /// The JSON string literal as the encoder wrote it byte by byte before its fast path.
    static func referenceString(_ s: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        let hex = Array("0123456789abcdef".utf8)
        for c in s.utf8 {
            switch c {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0..<0x20: out += [0x5C, 0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]]
            default: out.append(c)
            }
        }
        return out + [0x22]
    }

    @Test func stringsAreWrittenAsTheBytewiseEscaperWroteThem() {
        let pieces = ["", "a", "u_123", "é", "✓", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", " ", "long-enough-to-live-on-the-heap"]
        var state: UInt64 = 42
        for _ in 0..<2000 {
            var s = ""
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for k in 0..<Int(state >> 61) {
                s += pieces[Int((state >> UInt64(8 * k)) & 0xFF) % pieces.count]
            }
            var out: [UInt8] = [1, 2]
            EventCodec.appendString(s, to: &out)
            #expect(out == [1, 2] + Self.referenceString(s), "\(s.debugDescription)")
        }
    }

    @Test func moneyIsWrittenAsItsDescription() {
        var values: [Int64] = [0, 1, -1, 10, 100, 10_000, 990_000, 1_000_000, 9_990_000, -9_990_000, 123_456_789, 1_000_001, .max, .min, .min + 1]
        var state: UInt64 = 7
        for _ in 0..<5000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values.append(Int64(bitPattern: state) >> Int64(state & 63))
        }
        for v in values {
            var out: [UInt8] = []
            Money(micros: v).appendDecimal(to: &out)
            #expect(String(decoding: out, as: UTF8.self) == Money(micros: v).description, "micros \(v)")
        }
    }

    @Test func integersAreWrittenAsStringOfThem() {
        for v in [0, 1, -1, 9, 10, 99, 100, 1_000_000_000, Int.max, Int.min, Int.min + 1, 123_456_789_012] {
            var out: [UInt8] = []
            Money.appendInteger(v, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
        }
    }
}
