import Projections
import EventStore

/// Reads `ProjectionWriter`'s encodings (varints, zigzag varints, int64, strings) from bytes in
/// memory: for a derived file's section read at an offset and checked by its own CRC. Any
/// shortfall or impossible value throws `ProjectionReader.Unreadable` naming the file offset.
struct ByteParser {
    private let bytes: [UInt8]
    private var at = 0
    /// The file offset of `bytes[0]`.
    private let base: Int

    init(_ bytes: [UInt8], fileOffset: Int) {
        self.bytes = bytes
        base = fileOffset
    }

    var isAtEnd: Bool { at == bytes.count }

    func unreadable(_ reason: String) -> ProjectionReader.Unreadable {
        ProjectionReader.Unreadable(offset: base + at, reason: reason)
    }

    mutating func raw(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, bytes.count - at >= n else { throw unreadable("ends early (\(n) more bytes needed)") }
        defer { at += n }
        return bytes[at..<(at + n)]
    }

    mutating func byte() throws -> UInt8 { try raw(1).first! }
    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw unreadable("a flag that is neither 0 nor 1")
        }
    }

    mutating func varint() throws -> UInt64 {
        var v: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            let b = try byte()
            v |= UInt64(b & 0x7F) << UInt64(shift)
            if b & 0x80 == 0 { return v }
        }
        throw unreadable("a varint longer than 64 bits")
    }

    mutating func count() throws -> Int {
        let v = try varint()
        guard v <= UInt64(Int32.max) else { throw unreadable("a count of \(v)") }
        return Int(v)
    }

    mutating func int() throws -> Int {
        let v = try varint()
        return Int(Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
    }

    mutating func int64() throws -> Int64 {
        let b = try raw(8)
        var v: UInt64 = 0
        for (i, x) in b.enumerated() { v |= UInt64(x) << UInt64(8 * i) }
        return Int64(bitPattern: v)
    }

    mutating func string() throws -> String {
        let n = try count()
        guard let s = String(validating: try raw(n), as: UTF8.self) else { throw unreadable("a string that is not UTF-8") }
        return s
    }
}
