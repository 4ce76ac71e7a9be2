import EventStore
import SubscriptionDomain

extension ProjectionStore {
    /// The time index file, next to the projection it goes with.
    public var timeIndexPath: String { logDirectory + "/projections/" + Self.fileLabel(profile.name) + "-" + fingerprint + ".timeindex" }

    /// The time index of the log as of its head, and whether it was built now.
    ///
    /// The stored index is used only when it is whole (CRC, and every key and order one a build
    /// makes), of this format and fingerprint (profile, rules, fold code), and its head is the
    /// log's head (same position, same chain hash). Otherwise it is built from the log (through
    /// the event cache) and saved; a file that cannot be saved leaves the answer standing.
    public func timeIndex() throws -> (index: TimeIndex, rebuilt: Bool) {
        let log = try Self.openForScans(logDirectory)
        try afterOpeningLog?()
        let head = log.head.position
        if let stored = try storedTimeIndex(), stored.fingerprint == fingerprint, stored.position == head,
           try log.chainHash(at: head) == stored.hash {
            return (stored, false)
        }
        let index = try TimeIndex.build(directory: logDirectory, profile: profile, fingerprint: fingerprint,
                                        partitions: partitions, through: head)
        // A cache of the log: if it cannot be saved, the answer stands and the next query builds again.
        try? index.write(path: timeIndexPath)
        return (index, true)
    }

    /// The stored index, or nil when there is none or it is not whole (then it is rebuilt).
    func storedTimeIndex() throws -> TimeIndex? {
        do {
            return try TimeIndex.read(path: timeIndexPath)
        } catch is ProjectionReader.Unreadable {
            return nil
        }
    }
}
