import TestKit
import EventStore
import SubscriptionDomain
import Projections
import ProjectionStorage
import Ingest

/// A log in a fresh folder, filled from canonical lines (for the tests of Projections and ProjectionStorage).
public final class TestLog {
    private let scratch = Scratch()
    /// The log's folder.
    public var path: String { scratch.log }
    public init(_ lines: [String], batch: Int = 3, profile: Profile = .handz) throws {
        let log = try EventLog(directory: path)
        var summary = EventImporter.Summary()
        var importer = EventImporter(log: log)
        importer.batchSize = batch
        importer.profile = profile
        try importer.importLines(Array(lines.joined(separator: "\n").utf8), file: "test", into: &summary)
        precondition(summary.rejected == 0, "\(summary.rejected) line(s) rejected")
    }

    public func replay(at: String, profile: Profile = .handz, partitions: Int = 1, from: String? = nil, to: String? = nil) throws -> LedgerSnapshot {
        var o = ReplayOptions(profile: profile, asOf: Timestamp.parse(at)!)
        o.partitions = partitions
        o.from = from.flatMap { Timestamp.parse($0) }
        o.to = to.flatMap { Timestamp.parse($0) }
        return try Replay.run(directory: path, options: o)
    }
}
