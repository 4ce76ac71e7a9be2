import Projections
import EventStore
import SubscriptionDomain
import Platform

/// The kept projection's binary form, written field by field in a fixed order: unsigned LEB128
/// varints for counts and lengths, zigzag varints for other integers, 8 little-endian bytes for
/// times and money, one byte for flags and optional markers, strings as a length and their UTF-8.
/// `ProjectionReader` reads the same order back.
struct ProjectionWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 20) { bytes.reserveCapacity(capacity) }

    /// Hands the bytes written so far to `sink` and starts again (for writing in chunks).
    mutating func drain(_ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes(sink)
        removeAll()
    }

    /// Forgets the bytes written so far, keeping the memory.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func raw(_ b: some Sequence<UInt8>) { bytes.append(contentsOf: b) }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func count(_ n: Int) { varint(UInt64(n)) }
    mutating func int(_ v: Int) { varint(UInt64(bitPattern: Int64((v << 1) ^ (v >> 63)))) }
    mutating func byte(_ b: UInt8) { bytes.append(b) }
    mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

    mutating func int64(_ v: Int64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func uint32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func time(_ t: Timestamp) { int64(t.nanoseconds) }
    mutating func money(_ m: Money) { int64(m.micros) }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { u in
            count(u.count)
            bytes.append(contentsOf: u)
        }
    }

    mutating func optional<T>(_ value: T?, _ write: (inout ProjectionWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func array<C: Collection>(_ values: C, _ write: (inout ProjectionWriter, C.Element) -> Void) {
        count(values.count)
        for v in values { write(&self, v) }
    }
}

/// A file written from a `ProjectionWriter` in chunks, with the CRC32C of everything before in its
/// last 4 bytes, put in place atomically by `commit` (the kept projection, the event cache).
struct ChecksummedReplacement {
    private let file: DurableFile.Replacement
    private var crc: UInt32 = 0

    init(path: String) throws { file = try DurableFile.Replacement(path: path) }

    /// Writes what `w` holds, keeping the CRC, and empties it.
    mutating func flush(_ w: inout ProjectionWriter) throws {
        try w.drain { bytes in
            crc = CRC32C.checksum(bytes, continuing: crc)
            try file.append(bytes)
        }
    }

    /// Writes the rest of `w` and the CRC, then puts the file in place.
    mutating func commit(_ w: inout ProjectionWriter) throws {
        try flush(&w)
        w.uint32(crc)
        try w.drain { try file.append($0) }
        try file.commit()
    }
}
