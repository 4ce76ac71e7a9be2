import Projections

/// Key numbers by kind, name number and number packed in one word: an open-addressing table (the
/// builder looks a key up for every difference; hashing the whole key, name and all, costs more).
struct PackedKeys: Sendable {
    private static let empty = UInt64.max
    private var slots = [UInt64](repeating: empty, count: 64)
    private var ids = [Int32](repeating: 0, count: 64)
    private var count = 0

    /// Kind (5 bits), name number (16 bits) and number (43 bits, biased) in one word, when they
    /// fit: every kind, a name among the first 65,535, a number within ±2⁴² (every day number and
    /// packed window number a build makes). The empty slot's mark (all ones) is no kind's word.
    static func pack(_ key: TimeKey, name: Int) -> UInt64? {
        let bias: Int64 = 1 << 42
        let kind = key.kind.rawValue
        guard kind < 31, name < 1 << 16, key.number >= -bias, key.number < bias else { return nil }
        return UInt64(kind) << 59 | UInt64(name) << 43 | UInt64(key.number + bias)
    }

    /// The number of `word`, or `next` (then recorded) when it has none yet.
    mutating func number(of word: UInt64, else next: Int32) -> Int32 {
        var i = slot(word)
        while slots[i] != Self.empty {
            if slots[i] == word { return ids[i] }
            i = (i + 1) & (slots.count - 1)
        }
        slots[i] = word
        ids[i] = next
        count += 1
        if count * 2 > slots.count { grow() }
        return next
    }

    private func slot(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    private mutating func grow() {
        let old = zip(slots, ids).filter { $0.0 != Self.empty }
        slots = [UInt64](repeating: Self.empty, count: slots.count * 2)
        ids = [Int32](repeating: 0, count: slots.count)
        for (word, id) in old {
            var i = slot(word)
            while slots[i] != Self.empty { i = (i + 1) & (slots.count - 1) }
            slots[i] = word
            ids[i] = id
        }
    }
}
