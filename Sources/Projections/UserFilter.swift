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

    mutating func insert(_ user: String) {
        var id = user
        let b = id.withUTF8 { (UserIndex.hash(UnsafeRawBufferPointer($0)) >> 1) & mask }
        bits[Int(b >> 6)] |= 1 << (b & 63)
        users.insert(user)
    }

    /// The user's id if it is in the set.
    @inline(__always) func member(_ user: UnsafeRawBufferPointer) -> String? {
        let b = (UserIndex.hash(user) >> 1) & mask
        guard bits[Int(b >> 6)] & (1 << (b & 63)) != 0 else { return nil }
        let id = String(decoding: user, as: UTF8.self)
        return users.contains(id) ? id : nil
    }
}
