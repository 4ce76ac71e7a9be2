/// Every user's fold: a `UserIndex` from user id to a slot in one contiguous array, so that a
/// million users cost their folds plus a small index, not a hash table of half-empty 500-byte buckets.
struct UserTable: Sendable, Codable {
    private(set) var folds: ContiguousArray<UserFold> = []
    private var index = UserIndex()

    /// `capacity` reserves the folds' array (untouched reserve costs no resident memory); the
    /// index grows as users come, since a hash table reserved too large is touched all over.
    init(capacity: Int = 0) {
        folds.reserveCapacity(capacity)
    }

    var count: Int { folds.count }
    var users: [String] { folds.map(\.state.user) }

    /// The slot of the user whose id has these UTF-8 bytes and hash.
    @inline(__always) private func slot(_ user: UnsafeRawBufferPointer, hash: UInt64) -> Int32? {
        index.find(hash) { UserIndex.isUser(folds[Int($0)].state.user, user) }
    }

    private func slot(_ user: String) -> Int32? {
        var user = user
        return user.withUTF8 { b in let raw = UnsafeRawBufferPointer(b); return slot(raw, hash: UserIndex.hash(raw)) }
    }

    subscript(user: String) -> UserFold? {
        get { slot(user).map { folds[Int($0)] } }
        set {
            if let i = slot(user) {
                if let newValue { folds[Int(i)] = newValue } else { remove(slot: i) }
            } else if let newValue {
                index.insert(UserIndex.hash(user), slot: Int32(folds.count))
                folds.append(newValue)
            }
        }
    }

    /// Runs `body` on the user's fold in place, creating it first if needed.
    mutating func update(_ user: String, _ body: (inout UserFold) -> Void) {
        var user = user
        user.withUTF8 { b in update(UnsafeRawBufferPointer(b), body) }
    }

    /// The same, for a user id given as UTF-8 bytes (a log record's stream) and its FNV-1a hash if
    /// already computed: no `String` unless the user is new.
    @inline(__always) mutating func update(_ user: UnsafeRawBufferPointer, fnv: UInt64? = nil, _ body: (inout UserFold) -> Void) {
        let h = fnv.map { UserIndex.hash(fnv: $0) } ?? UserIndex.hash(user)
        let i: Int
        if let found = slot(user, hash: h) { i = Int(found) } else {
            i = folds.count
            index.insert(h, slot: Int32(i))
            folds.append(UserFold(user: String(decoding: user, as: UTF8.self)))
        }
        body(&folds[i])
    }

    /// The users that must be folded again in effect order, as a filter over their ids' bytes.
    func outOfOrderUsers() -> UserFilter {
        var filter = UserFilter(bits: max(1 << 16, count * 8))
        // By index, reading two fields: iterating the folds would copy each one.
        for i in folds.indices where folds[i].outOfOrder { filter.insert(folds[i].state.user) }
        return filter
    }

    private mutating func remove(slot i: Int32) {
        index.remove(UserIndex.hash(folds[Int(i)].state.user), slot: i)
        let last = Int32(folds.count - 1)
        if i != last {
            index.move(UserIndex.hash(folds[Int(last)].state.user), from: last, to: i)
            folds[Int(i)] = folds[Int(last)]
        }
        folds.removeLast()
    }

    init(from decoder: any Decoder) throws {
        folds = try ContiguousArray(decoder.singleValueContainer().decode([UserFold].self))
        index = UserIndex(capacity: folds.count)
        for (i, f) in folds.enumerated() { index.insert(UserIndex.hash(f.state.user), slot: Int32(i)) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Array(folds))
    }
}
