/// Fast lookup of a frozen tag (event type, field name) from raw bytes: bucketed by length, compared with memcmp.
struct TagTable: Sendable {
    private var buckets: [[(bytes: [UInt8], index: Int)]] = Array(repeating: [], count: 33)

    init(_ tags: [String]) {
        for (i, t) in tags.enumerated() { buckets[t.utf8.count].append((Array(t.utf8), i)) }
    }

    /// The index of the tag equal to `b`, if any.
    @inline(__always) func index(of b: UnsafeRawBufferPointer) -> Int? {
        guard b.count < buckets.count else { return nil }
        for entry in buckets[b.count] {
            let equal = entry.bytes.withUnsafeBytes { memcmpEqual($0, b) }
            if equal { return entry.index }
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
