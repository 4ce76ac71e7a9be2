import SubscriptionDomain
/// The user tables of a replay, one per partition (users split by a hash of their id), kept apart
/// rather than merged: merging would copy every fold once more at the peak.
package struct UserPartitions: Sendable {
    package private(set) var tables: [UserTable<UserFold>]

    package init(_ tables: [UserTable<UserFold>]) { self.tables = tables.isEmpty ? [UserTable<UserFold>()] : tables }

    func partition(of user: String) -> Int {
        var u = user
        return u.withUTF8 { Replay.partition(of: UnsafeRawBufferPointer($0), count: tables.count) }
    }

    package subscript(user: String) -> UserFold? {
        get { tables[partition(of: user)][user] }
        set { tables[partition(of: user)][user] = newValue }
    }

    /// Whether the user has a fold.
    func contains(_ user: String) -> Bool { tables[partition(of: user)].slot(user) != nil }

    /// A user's state, read in place (the fold is not copied).
    func state(of user: String) -> SubscriberState? {
        let p = partition(of: user)
        guard let i = tables[p].slot(user) else { return nil }
        return tables[p][slot: Int(i)].state
    }

    package mutating func update(_ user: String, _ body: (inout UserFold) -> Void) {
        tables[partition(of: user)].update(user, body)
    }

    var count: Int { tables.reduce(0) { $0 + $1.count } }
    var users: [String] { tables.flatMap(\.users) }
    /// Every fold, partition after partition.
    package var folds: FlattenSequence<[ContiguousArray<UserFold>]> { tables.map(\.folds).joined() }
}
