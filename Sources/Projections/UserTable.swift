/// Every user's fold: an index from user id to a slot in one contiguous array, so that a
/// million users cost their folds plus a small index, not a hash table of half-empty 500-byte buckets.
struct UserTable: Sendable, Codable {
    private(set) var folds: ContiguousArray<UserFold> = []
    private var index: [String: Int32] = [:]

    /// `capacity` reserves the folds' array (untouched reserve costs no resident memory); the
    /// index grows as users come, since a hash table reserved too large is touched all over.
    init(capacity: Int = 0) {
        folds.reserveCapacity(capacity)
    }

    var count: Int { folds.count }
    var users: [String] { Array(index.keys) }

    subscript(user: String) -> UserFold? {
        get { index[user].map { folds[Int($0)] } }
        set {
            if let i = index[user] {
                if let newValue { folds[Int(i)] = newValue } else { remove(user) }
            } else if let newValue {
                index[user] = Int32(folds.count)
                folds.append(newValue)
            }
        }
    }

    /// Runs `body` on the user's fold in place, creating it first if needed.
    mutating func update(_ user: String, _ body: (inout UserFold) -> Void) {
        let i: Int
        if let found = index[user] { i = Int(found) } else {
            i = folds.count
            index[user] = Int32(i)
            folds.append(UserFold(user: user))
        }
        body(&folds[i])
    }

    private mutating func remove(_ user: String) {
        guard let i = index.removeValue(forKey: user) else { return }
        let last = folds.count - 1
        if Int(i) != last {
            folds[Int(i)] = folds[last]
            index[folds[Int(i)].state.user] = i
        }
        folds.removeLast()
    }

    init(from decoder: any Decoder) throws {
        folds = try ContiguousArray(decoder.singleValueContainer().decode([UserFold].self))
        for (i, f) in folds.enumerated() { index[f.state.user] = Int32(i) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Array(folds))
    }
}
