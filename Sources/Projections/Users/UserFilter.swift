/// A set of user ids, tested first against a bitset of their hashes (a few cache-resident bits per
/// user), so that a scan over every record of the log rarely builds a string to ask.
struct UserFilter {
    private var bits: [UInt64]
    private let mask: UInt64
    private(set) var users: Set<String> = []

    init(bits: Int) {
        var n = 64
        while n < bits { n <<= 1 }
        self.bits = Array(repeating: 0, count: n / 64)
        mask = UInt64(n - 1)
    }

    /// The word and bit of a user id's hash.
    @inline(__always) private func bit(_ h: UInt64) -> (word: Int, mask: UInt64) {
        let b = (h >> 1) & mask
        return (Int(b >> 6), 1 << (b & 63))
    }

    mutating func insert(_ user: String) {
        let (word, m) = bit(UserIndex.hash(user))
        bits[word] |= m
        users.insert(user)
    }

    /// The user's id if it is in the set.
    @inline(__always) func member(_ user: UnsafeRawBufferPointer) -> String? {
        let (word, m) = bit(UserIndex.hash(user))
        guard bits[word] & m != 0 else { return nil }
        let id = String(decoding: user, as: UTF8.self)
        return users.contains(id) ? id : nil
    }
}
