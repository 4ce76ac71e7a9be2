import SubscriptionDomain

/// One user's fold as `UserPartitions.forEachFold` lends it to a report: its fields, read in
/// place in the table where they are used. A `UserFold` lent as a value (even `borrowing`) is
/// loaded whole, and wherever a report writes between two of its reads (a tally, a dictionary)
/// the optimizer copies all of it: a dozen reference counts up and down per user and report,
/// measured as half the read models' time. Valid only inside the body it is lent to.
package struct LentFold {
    private let fold: UnsafePointer<UserFold>

    fileprivate init(_ fold: UnsafePointer<UserFold>) { self.fold = fold }

    package var state: SubscriberState { _read { yield fold.pointee.state } }
    package var user: String { _read { yield fold.pointee.state.user } }
    var counts: MetricCounts { _read { yield fold.pointee.counts } }
    var funnel: FunnelProgress { _read { yield fold.pointee.funnel } }
    var notifications: [NotificationEntry] { _read { yield fold.pointee.notifications } }
    var books: UserBooks { _read { yield fold.pointee.books } }
    var trialStartedAt: Timestamp? { fold.pointee.trialStartedAt }
    var trialConverted: Bool { fold.pointee.trialConverted }
    package var transferOut: UserFold.Transfer? { fold.pointee.transferOut }

    /// The fold itself, copied (for code that keeps or passes on a whole `UserFold`).
    package var copied: UserFold { fold.pointee }
}

extension UserPartitions {
    /// Runs `body` on every fold, partition after partition, lent in place (`LentFold`).
    @inline(__always) package func forEachFold(_ body: (LentFold) -> Void) {
        forEachFold(inPartitions: tables.indices, body)
    }

    /// Runs `body` on every fold of the partitions `range`, partition after partition, lent in place.
    @inline(__always) package func forEachFold(inPartitions range: Range<Int>, _ body: (LentFold) -> Void) {
        for t in tables[range] {
            t.storage.withUnsafeBufferPointer { folds in
                for i in folds.indices { body(LentFold(folds.baseAddress! + i)) }
            }
        }
    }
}
