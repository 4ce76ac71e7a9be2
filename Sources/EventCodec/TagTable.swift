import SubscriptionDomain
/// Fast lookup of a frozen tag (event type, field name, enum value) from raw bytes: the tags that
/// start with the same byte are chained, and a candidate is confirmed with one `memcmp`. Built once
/// per tag set into memory that is never freed or changed (the tables are static constants), so
/// a lookup touches no reference count.
struct TagTable: @unchecked Sendable {
    /// Per tag: its length and where its bytes start in `text`.
    private let lengths: UnsafeMutablePointer<Int>
    private let starts: UnsafeMutablePointer<Int>
    private let text: UnsafeMutablePointer<UInt8>
    /// Per first byte: the first tag starting with it (index + 1, 0 for none); per tag: the next one.
    private let firstByChar: UnsafeMutablePointer<UInt8>
    private let nextWithChar: UnsafeMutablePointer<UInt8>

    init(_ tags: [String]) {
        precondition(tags.count < 255, "a tag table holds fewer than 255 tags")
        lengths = .allocate(capacity: tags.count)
        starts = .allocate(capacity: tags.count)
        let all = tags.flatMap(\.utf8)
        text = .allocate(capacity: max(1, all.count))
        text.initialize(from: all, count: all.count)
        firstByChar = .allocate(capacity: 256)
        firstByChar.initialize(repeating: 0, count: 256)
        nextWithChar = .allocate(capacity: tags.count)
        nextWithChar.initialize(repeating: 0, count: tags.count)
        var offset = 0
        for (i, tag) in tags.enumerated() {
            lengths[i] = tag.utf8.count
            starts[i] = offset
            offset += tag.utf8.count
        }
        for (i, tag) in tags.enumerated().reversed() {
            guard let first = tag.utf8.first else { continue }
            nextWithChar[i] = firstByChar[Int(first)]
            firstByChar[Int(first)] = UInt8(i + 1)
        }
    }

    /// The first tag starting with `b`'s first byte for which `matches(tag bytes)` holds.
    @inline(__always) private func first(startingLike b: UnsafeRawBufferPointer, where matches: (UnsafeRawBufferPointer) -> Bool) -> Int? {
        guard let first = b.first else { return nil }
        var entry = Int(firstByChar[Int(first)])
        while entry != 0 {
            let i = entry - 1
            if matches(UnsafeRawBufferPointer(start: text + starts[i], count: lengths[i])) { return i }
            entry = Int(nextWithChar[i])
        }
        return nil
    }

    /// The index of the tag equal to `b`, if any.
    @inline(__always) func index(of b: UnsafeRawBufferPointer) -> Int? {
        first(startingLike: b) { memcmpEqual($0, b) }
    }

    /// The tag that `b` starts with, directly followed by a closing quote: `b` is the text after a
    /// JSON string's opening quote, and a match is the whole string (tags hold no quote or escape).
    /// Returns the tag's index and length; nil sends the caller to the general string scan.
    @inline(__always) func quotedPrefix(of b: UnsafeRawBufferPointer) -> (index: Int, length: Int)? {
        first(startingLike: b) { tag in
            tag.count < b.count && b[tag.count] == 0x22 && memcmpEqual(tag, UnsafeRawBufferPointer(rebasing: b[..<tag.count]))
        }.map { ($0, lengths[$0]) }
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
