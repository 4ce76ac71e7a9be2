import SubscriptionDomain

/// A value folded per user, kept in a `UserTable`: it knows its user and how to start empty.
public protocol UserKeyed {
    /// The app user id the value belongs to.
    var user: String { get }
    /// The value before any of the user's events.
    init(user: String)
}

extension SubscriberState: UserKeyed {}

/// Every user's fold: a `UserIndex` from user id to a slot in one contiguous array, so that a
/// million users cost their folds plus a small index, not a hash table of half-empty 500-byte buckets.
/// Users are found by the bytes of their id (a log record's stream): no `String`, no SipHash.
public struct UserTable<Fold: UserKeyed> {
    /// The folds, in the order their users first came.
    public var folds: ContiguousArray<Fold> { storage }
    @usableFromInline var storage: ContiguousArray<Fold> = []
    @usableFromInline var index = UserIndex()

    /// `capacity` reserves the folds' array (untouched reserve costs no resident memory); the
    /// index grows as users come, since a hash table reserved too large is touched all over.
    public init(capacity: Int = 0) {
        storage.reserveCapacity(capacity)
    }

    /// A table of `folds`, whose users the caller knows are all different, indexed in one go.
    package init(folds: ContiguousArray<Fold>) {
        storage = folds
        index = UserIndex(slotHashes: folds.indices.map { UserIndex.hash(folds[$0].user) })
    }

    /// The number of users.
    public var count: Int { storage.count }
    /// Every user id, in the order the users first came.
    public var users: [String] { storage.map(\.user) }

    /// The slot of the user whose id has these UTF-8 bytes and hash.
    @inlinable func slot(_ user: UnsafeRawBufferPointer, hash: UInt64) -> Int32? {
        index.find(hash) { UserIndex.isID(storage[Int($0)].user, user) }
    }

    func slot(_ user: String) -> Int32? {
        var user = user
        return user.withUTF8 { b in let raw = UnsafeRawBufferPointer(b); return slot(raw, hash: UserIndex.hash(raw)) }
    }

    /// A user's fold; setting nil removes the user.
    public subscript(user: String) -> Fold? {
        get { slot(user).map { storage[Int($0)] } }
        set {
            if let i = slot(user) {
                if let newValue { storage[Int(i)] = newValue } else { remove(slot: i) }
            } else if let newValue {
                index.insert(UserIndex.hash(user), slot: Int32(storage.count))
                storage.append(newValue)
            }
        }
    }

    /// Runs `body` on the user's fold in place, creating it first if needed.
    @inlinable public mutating func update(_ user: String, _ body: (inout Fold) -> Void) {
        body(&storage[slot(adding: user)])
    }

    /// The slot of a user id given as UTF-8 bytes (a log record's stream) and its FNV-1a hash if
    /// already computed, adding the user if new (the only time a `String` is built); read and
    /// change the fold in place through `self[slot:]`.
    @inlinable public mutating func slot(adding user: UnsafeRawBufferPointer, fnv: UInt64? = nil) -> Int {
        let h = fnv.map { UserIndex.hash(fnv: $0) } ?? UserIndex.hash(user)
        if let found = slot(user, hash: h) { return Int(found) }
        let i = storage.count
        index.insert(h, slot: Int32(i))
        storage.append(Fold(user: String(decoding: user, as: UTF8.self)))
        return i
    }

    /// The same for a user id given as a string.
    @inlinable public mutating func slot(adding user: String) -> Int {
        var user = user
        return user.withUTF8 { slot(adding: UnsafeRawBufferPointer($0)) }
    }

    /// The fold in a slot returned by `slot(adding:)`.
    @inlinable public subscript(slot i: Int) -> Fold {
        _read { yield storage[i] }
        _modify { yield &storage[i] }
    }

    private mutating func remove(slot i: Int32) {
        index.remove(UserIndex.hash(storage[Int(i)].user), slot: i)
        let last = Int32(storage.count - 1)
        if i != last {
            index.move(UserIndex.hash(storage[Int(last)].user), from: last, to: i)
            storage[Int(i)] = storage[Int(last)]
        }
        storage.removeLast()
    }
}

extension UserTable: Sendable where Fold: Sendable {}

extension UserTable where Fold == UserFold {
    /// The users that must be folded again in effect order.
    func outOfOrderUsers() -> Set<String> {
        var users: Set<String> = []
        // By index, reading two fields: iterating the folds would copy each one.
        for i in storage.indices where storage[i].outOfOrder { users.insert(storage[i].state.user) }
        return users
    }
}
