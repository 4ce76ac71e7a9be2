#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable run of bytes: page bodies, dictionaries, Thrift headers. The one type of the module
/// that reaches raw memory (contiguous UTF-8 of strings, byte comparison, hashing, handing bytes to
/// a sink); everything else works on it through the small interface below.
struct ByteBuffer: Sendable {
    private var storage: [UInt8] = []

    init() {}

    init(_ bytes: [UInt8]) { storage = bytes }

    /// The number of bytes held.
    var count: Int { storage.count }

    /// A copy of the bytes held.
    var bytes: [UInt8] { storage }

    /// A copy of the bytes in `range`.
    func bytes(in range: Range<Int>) -> [UInt8] { Array(storage[range]) }

    mutating func reserveCapacity(_ n: Int) { storage.reserveCapacity(n) }

    /// Empties the buffer, keeping its allocation for the next page.
    mutating func removeAll() { storage.removeAll(keepingCapacity: true) }

    /// Drops every byte from `count` on (an entry appended on trial and not kept).
    mutating func truncate(to count: Int) { storage.removeSubrange(count...) }

    mutating func append(_ byte: UInt8) { storage.append(byte) }

    mutating func append(_ bytes: [UInt8]) { storage.append(contentsOf: bytes) }

    mutating func append(_ other: ByteBuffer) { storage.append(contentsOf: other.storage) }

    /// Appends `value` as 4 little-endian bytes.
    mutating func appendLittleEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    /// Appends `value` as 8 little-endian bytes (two's complement).
    mutating func appendLittleEndian(_ value: Int64) {
        Swift.withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    /// Overwrites the 4 bytes at `offset` with `value`, little-endian (a length known only later).
    mutating func setLittleEndian(_ value: UInt32, at offset: Int) {
        for i in 0..<4 { storage[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    /// Appends the UTF-8 bytes of `string`.
    mutating func appendUTF8(_ string: String) {
        let copied: Void? = string.utf8.withContiguousStorageIfAvailable { storage.append(contentsOf: $0) }
        if copied == nil { storage.append(contentsOf: string.utf8) }
    }

    /// Appends a PLAIN BYTE_ARRAY: the 4-byte little-endian length of `string`'s UTF-8, then the bytes.
    /// The caller has checked that the length fits in 32 bits.
    mutating func appendLengthPrefixedUTF8(_ string: String) {
        appendLittleEndian(UInt32(truncatingIfNeeded: string.utf8.count))
        appendUTF8(string)
    }

    /// The unsigned byte-wise order of the bytes in `range` against `other`: negative, zero or
    /// positive (a shorter prefix sorts first).
    func compare(_ range: Range<Int>, with other: [UInt8]) -> Int {
        storage.withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                ByteBuffer.compare(UnsafeRawBufferPointer(rebasing: mine[range]), theirs)
            }
        }
    }

    /// Whether the bytes in `a` equal those in `b`, both ranges of this buffer.
    func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        return storage.withUnsafeBytes { all in
            ByteBuffer.compare(UnsafeRawBufferPointer(rebasing: all[a]), UnsafeRawBufferPointer(rebasing: all[b])) == 0
        }
    }

    /// A hash of the bytes in `range` (seeded per process: for in-memory tables only).
    func hash(_ range: Range<Int>) -> Int {
        storage.withUnsafeBytes { all in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[range]))
            return hasher.finalize()
        }
    }

    /// Hands the bytes to `body` (a sink's write) without copying them.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes(body)
    }

    private static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let order = memcmp(pa, pb, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}
