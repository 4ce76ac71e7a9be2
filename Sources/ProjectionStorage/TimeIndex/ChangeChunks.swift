/// One key's differences, packed, in chunks that double in size up to 65,536 words (512 KiB): a
/// chunk, once filled, is never copied to grow, and at most one chunk per key is part empty.
///
/// Most differences are +1 or −1 at an instant within ±2⁶¹ ns of 1970 (the years 1897 to 2043):
/// such a difference is one word, its time shifted up two bits over its tag (0: +1, 1: −1). Any
/// other takes three: the tag 2 alone, then the time and the difference whole. (Half the memory a
/// build's differences took as pairs of words, and half the fresh pages to fault in.)
struct ChangeChunks: Sendable {
    typealias Change = TimeIndexBuilder.Change
    private static let largest = 1 << 16
    private static let escape: UInt64 = 2
    private var chunks: [[UInt64]] = []
    /// The number of differences held.
    private(set) var count = 0

    init() {}

    /// The one word of `c`, when it has one.
    @inline(__always)
    private static func packed(_ c: Change) -> UInt64? {
        guard c.delta == 1 || c.delta == -1, (c.time << 2) >> 2 == c.time else { return nil }
        return UInt64(bitPattern: c.time << 2) | (c.delta == 1 ? 0 : 1)
    }

    /// How many words `c` takes: 1 or 3.
    @inline(__always)
    static func words(_ c: Change) -> Int { packed(c) == nil ? 3 : 1 }

    /// Writes `c`'s words at `i` in `out`; returns the place after them.
    @inline(__always)
    static func write(_ c: Change, into out: UnsafeMutableBufferPointer<UInt64>, at i: Int) -> Int {
        if let word = packed(c) {
            out[i] = word
            return i + 1
        }
        out[i] = escape
        out[i + 1] = UInt64(bitPattern: c.time)
        out[i + 2] = UInt64(bitPattern: c.delta)
        return i + 3
    }

    /// Appends `run`, the words (`write(_:into:at:)`) of `differences` differences: into the last
    /// chunk as far as it goes, the rest into new ones (a difference's three words may straddle two).
    mutating func append(_ run: UnsafeBufferPointer<UInt64>, holding differences: Int) {
        var from = 0
        while from < run.count {
            let last = chunks.count - 1
            if last < 0 || chunks[last].count == chunks[last].capacity {
                var chunk: [UInt64] = []
                chunk.reserveCapacity(last < 0 ? 16 : min(chunks[last].capacity * 2, Self.largest))
                chunks.append(chunk)
                continue
            }
            let n = min(run.count - from, chunks[last].capacity - chunks[last].count)
            chunks[last].append(contentsOf: UnsafeBufferPointer(rebasing: run[from..<(from + n)]))
            from += n
        }
        count += differences
    }

    /// Calls `body` with each difference, in the order given.
    func forEach(_ body: (Change) -> Void) {
        // (Words left of a difference of three: 0, none; 2, its time next; 1, its difference next.)
        var pending = 0
        var time: Int64 = 0
        for chunk in chunks {
            for word in chunk {
                switch pending {
                case 0:
                    if word == Self.escape {
                        pending = 2
                    } else {
                        body(Change(time: Int64(bitPattern: word) >> 2, delta: word & 1 == 0 ? 1 : -1))
                    }
                case 2:
                    time = Int64(bitPattern: word)
                    pending = 1
                default:
                    body(Change(time: time, delta: Int64(bitPattern: word)))
                    pending = 0
                }
            }
        }
    }

    /// The words of each chunk, in order (for tests).
    func forEachChunk(_ body: ([UInt64]) -> Void) {
        for c in chunks { body(c) }
    }
}
