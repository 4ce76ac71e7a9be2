/// A set of user ids below a known count, as bits: what a metric's distinct customers are
/// counted with (an insert is a word's bit, not a hash), emptied by clearing only the words it set.
struct UserBits {
    private var words: [UInt64]
    private var touched: [Int] = []
    /// How many distinct ids are in the set.
    private(set) var count = 0

    init(users: Int) { words = Array(repeating: 0, count: (users + 63) / 64) }

    @inline(__always) mutating func insert(_ user: Int32) {
        let w = Int(user) >> 6, bit = UInt64(1) << UInt64(user & 63)
        guard words[w] & bit == 0 else { return }
        if words[w] == 0 { touched.append(w) }
        words[w] |= bit
        count += 1
    }

    mutating func removeAll() {
        for w in touched { words[w] = 0 }
        touched.removeAll(keepingCapacity: true)
        count = 0
    }
}
