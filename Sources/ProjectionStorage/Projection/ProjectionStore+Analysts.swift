import Projections
import EventStore
import SubscriptionDomain

extension ProjectionStore {
    /// The analysts' model file, next to the projection it goes with.
    public var analystModelPath: String { logDirectory + "/projections/" + Self.fileLabel(profile.name) + "-" + fingerprint + ".analysts" }

    /// The analysts' model of the log as of its head, and whether it was built now.
    ///
    /// The stored model is used only when it is whole (CRC, every id and order one a build
    /// makes), of this format and fingerprint (profile, rules, fold code), and its head is the
    /// log's head (same position, same chain hash). Otherwise it is built from the log (through
    /// the event cache) and saved; a file that cannot be saved leaves the answer standing.
    /// `spans: false` when no customer list is asked: only the sections metrics need are read
    /// (each checked by its CRC); `spans: true` reads only those customer lists need.
    public func analystModel(spans: Bool = true) throws -> (model: AnalystModel, rebuilt: Bool) {
        let log = try Self.openIndexed(logDirectory)
        try afterOpeningLog?()
        let head = log.head.position
        if let stored = try? AnalystModel.read(path: analystModelPath, spans: spans), stored.fingerprint == fingerprint, stored.position == head,
           try log.chainHash(at: head) == stored.hash {
            return (stored, false)
        }
        var (model, built) = try AnalystModel.build(directory: logDirectory, profile: profile, partitions: partitions, through: head)
        guard let hash = try log.chainHash(at: built.position) else {
            throw ProjectionError(position: built.position, reason: "the log does not reach its own head")
        }
        model.fingerprint = fingerprint
        model.position = built.position
        model.hash = hash
        // A cache of the log: if it cannot be saved, the answer stands and the next query builds again.
        try? model.write(path: analystModelPath)
        return (model, true)
    }
}
