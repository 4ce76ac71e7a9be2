/// Fast lookup of a frozen tag (event type, field name) from raw bytes: an open-addressing table
/// keyed by the tag's length and first eight bytes, confirmed by comparing the rest. Built once
/// per tag set into memory that is never freed or changed (the tables are static constants), so
/// a lookup touches no reference count.
struct TagTable: @unchecked Sendable {
    /// Per bucket: the tag's index + 1, or 0 for an empty bucket.
    private let buckets: UnsafeMutablePointer<UInt8>
    private let mask: Int
    /// Per tag: its first eight bytes (zero-padded), its length, and where its bytes start in `text`.
    private let heads: UnsafeMutablePointer<UInt64>
    private let lengths: UnsafeMutablePointer<Int>
    private let starts: UnsafeMutablePointer<Int>
    private let text: UnsafeMutablePointer<UInt8>
    private let longest: Int
    /// Per first byte: the first tag starting with it (index + 1, 0 for none); per tag: the next one.
    private let firstByChar: UnsafeMutablePointer<UInt8>
    private let nextWithChar: UnsafeMutablePointer<UInt8>

    init(_ tags: [String]) {
        precondition(tags.count < 255, "a tag table holds fewer than 255 tags")
        let size = max(16, 1 << (Int.bitWidth - (tags.count * 4).leadingZeroBitCount))
        mask = size - 1
        buckets = .allocate(capacity: size)
        buckets.initialize(repeating: 0, count: size)
        heads = .allocate(capacity: tags.count)
        lengths = .allocate(capacity: tags.count)
        starts = .allocate(capacity: tags.count)
        let all = tags.flatMap(\.utf8)
        text = .allocate(capacity: max(1, all.count))
        text.initialize(from: all, count: all.count)
        longest = tags.map(\.utf8.count).max() ?? 0
        firstByChar = .allocate(capacity: 256)
        firstByChar.initialize(repeating: 0, count: 256)
        nextWithChar = .allocate(capacity: tags.count)
        nextWithChar.initialize(repeating: 0, count: tags.count)
        for (i, tag) in tags.enumerated().reversed() {
            guard let first = tag.utf8.first else { continue }
            nextWithChar[i] = firstByChar[Int(first)]
            firstByChar[Int(first)] = UInt8(i + 1)
        }
        var offset = 0
        for (i, tag) in tags.enumerated() {
            let bytes = Array(tag.utf8)
            let head = bytes.withUnsafeBytes { Self.head(of: $0) }
            heads[i] = head
            lengths[i] = bytes.count
            starts[i] = offset
            offset += bytes.count
            var b = Self.bucket(head, bytes.count, mask)
            while buckets[b] != 0 { b = (b + 1) & mask }
            buckets[b] = UInt8(i + 1)
        }
    }

    /// The first eight bytes of `b` as a little-endian word, zero-padded.
    @inline(__always) private static func head(of b: UnsafeRawBufferPointer) -> UInt64 {
        if b.count >= 8 { return b.loadUnaligned(as: UInt64.self) }
        var w: UInt64 = 0
        for i in 0..<b.count { w |= UInt64(b[i]) << (8 * UInt64(i)) }
        return w
    }

    @inline(__always) private static func bucket(_ head: UInt64, _ count: Int, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: ((head ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    /// The index of the tag equal to `b`, if any.
    @inline(__always) func index(of b: UnsafeRawBufferPointer) -> Int? {
        let n = b.count
        guard n > 0, n <= longest else { return nil }
        let head = Self.head(of: b)
        var k = Self.bucket(head, n, mask)
        while true {
            let entry = Int(buckets[k])
            if entry == 0 { return nil }
            let i = entry - 1
            if heads[i] == head, lengths[i] == n,
               n <= 8 || memcmpEqual(UnsafeRawBufferPointer(start: text + starts[i] + 8, count: n - 8), UnsafeRawBufferPointer(rebasing: b[8...])) {
                return i
            }
            k = (k + 1) & mask
        }
    }
}

extension TagTable {
    /// The tag that `b` starts with, directly followed by a closing quote: `b` is the text after a
    /// JSON string's opening quote, and a match is the whole string (tags hold no quote or escape).
    /// Returns the tag's index and length; nil sends the caller to the general string scan.
    @inline(__always) func quotedPrefix(of b: UnsafeRawBufferPointer) -> (index: Int, length: Int)? {
        guard let first = b.first else { return nil }
        var entry = Int(firstByChar[Int(first)])
        while entry != 0 {
            let i = entry - 1
            let n = lengths[i]
            if n < b.count, b[n] == 0x22,
               memcmpEqual(UnsafeRawBufferPointer(start: text + starts[i], count: n), UnsafeRawBufferPointer(rebasing: b[..<n])) {
                return (i, n)
            }
            entry = Int(nextWithChar[i])
        }
        return nil
    }
}

@inline(__always) func memcmpEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var i = 0
    let n = a.count
    while i + 8 <= n {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
    }
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
