import Projections
import EventStore
import SubscriptionDomain
import Platform

/// Reads what `ProjectionWriter` wrote, from a file in chunks, keeping the CRC32C
/// of every byte it loads before `checkedLength` (the file's last 4 bytes hold that CRC). Any
/// shortfall or impossible value throws `Unreadable`: the projection is then rebuilt, never trusted.
struct ProjectionReader {
    /// Why the bytes cannot be a projection, and where.
    struct Unreadable: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "projection file offset \(offset): \(reason)" }
    }

    private var buffer: [UInt8]
    private var at = 0
    private var end = 0
    /// File offset of `buffer[0]`.
    private var base = 0
    private let source: DurableFile.Source
    private let checkedLength: Int
    /// CRC32C of the bytes loaded so far, up to `checkedLength`.
    private(set) var crc: UInt32 = 0
    /// Strings many folds hold alike (products, groups, currencies, contexts), kept once.
    private var shared: [String: String] = [:]

    /// Reads the file behind `source`, whose last 4 bytes are the CRC of the rest.
    init(source: DurableFile.Source, chunk: Int = 1 << 20) {
        self.source = source
        buffer = [UInt8](repeating: 0, count: chunk)
        checkedLength = max(0, source.size - 4)
    }

    /// Where the next byte is, from the start.
    var offset: Int { base + at }

    func unreadable(_ reason: String) -> Unreadable { Unreadable(offset: offset, reason: reason) }

    /// Makes sure `n` bytes are buffered, loading more from the file if needed.
    @inline(__always) private mutating func need(_ n: Int) throws {
        if end - at < n { try load(n) }
    }

    /// Moves the unread bytes to the front of the buffer and reads more, keeping the CRC.
    @inline(never) private mutating func load(_ n: Int) throws {
        guard base + at + n <= source.size else { throw unreadable("ends early (\(n) more bytes needed)") }
        if at > 0 {
            buffer.withUnsafeMutableBytes { b in b.baseAddress!.copyMemory(from: b.baseAddress! + at, byteCount: end - at) }
            base += at
            end -= at
            at = 0
        }
        if buffer.count < n { buffer.append(contentsOf: repeatElement(0, count: n - buffer.count)) }
        let got = try buffer.withUnsafeMutableBytes { b in
            try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[end...]))
        }
        let loadedFrom = base + end
        let checked = max(0, min(got, checkedLength - loadedFrom))
        if checked > 0 {
            crc = buffer.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[end..<(end + checked)]), continuing: crc) }
        }
        end += got
        guard end - at >= n else { throw unreadable("ends early (\(n) more bytes needed)") }
    }

    mutating func raw(_ n: Int) throws -> [UInt8] {
        try need(n)
        defer { at += n }
        return Array(buffer[at..<(at + n)])
    }

    /// Passes over `n` bytes (still checked by the CRC).
    mutating func skip(_ n: Int) throws {
        guard n >= 0 else { throw unreadable("cannot go back \(-n) bytes") }
        try need(n)
        at += n
    }

    /// Hands the next `n` bytes to `body`, in place.
    mutating func bytes<T>(_ n: Int, _ body: (UnsafeRawBufferPointer) -> T) throws -> T {
        try need(n)
        defer { at += n }
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[at..<(at + n)])) }
    }

    /// Checks that the content ends here, after `what`, and that the last 4 bytes are its CRC32C.
    mutating func checkCRCTrailer(after what: String) throws {
        guard offset == checkedLength else { throw unreadable("\(checkedLength - offset) bytes after \(what)") }
        let expected = crc
        guard try uint32() == expected else { throw unreadable("CRC32C does not match: damaged") }
    }

    mutating func byte() throws -> UInt8 {
        try need(1)
        defer { at += 1 }
        return buffer[at]
    }

    mutating func varint() throws -> UInt64 {
        // Most varints are one byte.
        if at < end, buffer[at] < 0x80 {
            defer { at += 1 }
            return UInt64(buffer[at])
        }
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw unreadable("varint too long") }
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    /// A count or length, bounded so that damage cannot ask for absurd allocations.
    mutating func count() throws -> Int {
        let v = try varint()
        guard v <= 1 << 31 else { throw unreadable("count \(v) is not plausible") }
        return Int(v)
    }

    mutating func int() throws -> Int {
        let z = try varint()
        return Int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let b: throw unreadable("\(b) is not a flag")
        }
    }

    mutating func int64() throws -> Int64 {
        try need(8)
        defer { at += 8 }
        return buffer.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: Int64.self)) }
    }

    mutating func uint32() throws -> UInt32 {
        try need(4)
        defer { at += 4 }
        return buffer.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }

    mutating func time() throws -> Timestamp { Timestamp(nanoseconds: try int64()) }
    mutating func money() throws -> Money { Money(micros: try int64()) }

    mutating func string() throws -> String {
        try bytes(try count()) { String(decoding: $0, as: UTF8.self) }
    }

    /// A string that many folds hold alike: one copy is kept and shared.
    mutating func sharedString() throws -> String {
        let s = try string()
        if let kept = shared[s] { return kept }
        if shared.count < 4096 { shared[s] = s }
        return s
    }

    /// A frozen tag, mapped to its value.
    mutating func tag<T: RawRepresentable<String>>(_: T.Type) throws -> T {
        let s = try string()
        guard let v = T(rawValue: s) else { throw unreadable("'\(s)' is not a \(T.self)") }
        return v
    }

    mutating func optional<T>(_ read: (inout ProjectionReader) throws -> T) throws -> T? {
        try bool() ? try read(&self) : nil
    }

    mutating func array<T>(_ read: (inout ProjectionReader) throws -> T) throws -> [T] {
        let n = try count()
        var out: [T] = []
        out.reserveCapacity(min(n, 1024))
        for _ in 0..<n { out.append(try read(&self)) }
        return out
    }
}
