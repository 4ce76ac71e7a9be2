import Foundation
import Testing

/// Changes a log's only segment the way damage and forgery do, with its own CRC32C (bitwise,
/// independent of the tool's): one flipped byte, a record edited with both CRCs recomputed, a
/// cut after a given record.
struct SegmentSurgery {
    let path: String
    var bytes: [UInt8]

    /// The log's segment (the one whose name ends in `.seg`).
    init(log: String) throws {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: log + "/segments").filter { $0.hasSuffix(".seg") }.sorted().first)
        path = log + "/segments/" + name
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Each record's frame: where it starts, its body's range, and its position.
    var frames: [(start: Int, body: Range<Int>, position: UInt64)] {
        var out: [(Int, Range<Int>, UInt64)] = []
        var at = 32
        while at + 12 <= bytes.count {
            let length = Int(le32(at))
            guard at + 12 + length <= bytes.count else { break }
            out.append((at, (at + 12)..<(at + 12 + length), le64(at + 12)))
            at += 12 + length
        }
        return out
    }

    func le32(_ o: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[o + $1]) << (8 * $1) } }
    func le64(_ o: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[o + $1]) << (8 * $1) } }

    /// Replaces the first `old` in the payload of the record at `position` by `new` (same length)
    /// and recomputes the body's and the frame header's CRC32C: only the hash chain can tell.
    mutating func forge(position: UInt64, replacing old: String, with new: String) throws {
        let frame = try #require(frames.first { $0.position == position })
        let body = Array(bytes[frame.body])
        let o = Array(old.utf8), n = Array(new.utf8)
        let at = try #require((0...(body.count - o.count)).first { Array(body[$0..<($0 + o.count)]) == o })
        bytes.replaceSubrange((frame.body.lowerBound + at)..<(frame.body.lowerBound + at + o.count), with: n)
        put32(Self.crc32c(Array(bytes[frame.body])), at: frame.start + 4)
        put32(Self.crc32c(Array(bytes[frame.start..<(frame.start + 8)])), at: frame.start + 8)
    }

    /// Flips the bits of one byte inside the body of the record at `position`.
    mutating func flipByte(inRecord position: UInt64) throws {
        let frame = try #require(frames.first { $0.position == position })
        bytes[frame.body.lowerBound + 70] ^= 0x5A
    }

    /// Keeps the records up to `position` and drops the rest, at a frame boundary.
    mutating func cut(after position: UInt64) throws {
        let frame = try #require(frames.first { $0.position == position })
        bytes.removeSubrange(frame.body.upperBound...)
    }

    func write() throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    private mutating func put32(_ v: UInt32, at o: Int) {
        for k in 0..<4 { bytes[o + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) }
    }

    static func crc32c(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in data {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}

/// Every file in a folder (recursively) with its bytes, to show a command left it as it was.
func folderContents(_ path: String) -> [String: Data] {
    var out: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: path) else { return out }
    for case let name as String in walker {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
            out[name] = FileManager.default.contents(atPath: path + "/" + name)
        }
    }
    return out
}
