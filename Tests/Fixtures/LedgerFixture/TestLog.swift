import Foundation
import TestKit
import EventStore
import SubscriptionDomain
import StoreAdapters
import Projections
import ProjectionStorage
import Ingest

/// A log in a fresh folder, filled through the import door (for the tests of Projections and
/// ProjectionStorage): the one way these tests make and grow a log.
public final class TestLog {
    private let scratch = Scratch()
    /// The log's folder.
    public var path: String { scratch.log }

    /// A log holding `lines` (canonical events, none of them rejected).
    public init(_ lines: [String], batch: Int = 3, profile: Profile = .handz) throws {
        let imported = try append(lines, batch: batch, profile: profile)
        precondition(imported.summary.rejected == 0, "\(imported.summary.rejected) line(s) rejected: \(imported.rejections)")
    }

    /// A log in its own folder holding a copy of `other`'s folder as it is now (the same records,
    /// indexes and kept files), to grow apart from it.
    public init(copyOf other: TestLog) throws {
        try FileManager.default.copyItem(atPath: other.path, toPath: path)
    }

    /// What an import did: its summary and the lines it rejected, with their reasons.
    public struct Imported: Sendable {
        public var summary: EventImporter.Summary
        public var rejections: [EventImporter.Rejection]
    }

    /// Imports `text` (lines in `source`'s form, read as the file `file`) as `import` does, through
    /// a writer opened for it and closed after; rejected lines are returned, not kept.
    @discardableResult
    public func append(bytes text: [UInt8], file: String = "test", batch: Int? = nil, profile: Profile = .handz,
                       source: PayloadSource = .canonical) throws -> Imported {
        var importer = EventImporter(log: try EventLog(directory: path))
        if let batch { importer.batchSize = batch }
        importer.profile = profile
        importer.source = source
        var summary = EventImporter.Summary()
        var rejected = RejectedLineCollector()
        try importer.importLines(text, file: file, rejected: &rejected, into: &summary)
        return Imported(summary: summary, rejections: rejected.rejections)
    }

    /// The same for lines.
    @discardableResult
    public func append(_ lines: [String], file: String = "test", batch: Int? = nil, profile: Profile = .handz,
                       source: PayloadSource = .canonical) throws -> Imported {
        try append(bytes: Array(lines.joined(separator: "\n").utf8), file: file, batch: batch, profile: profile, source: source)
    }

    public func replay(at: String, profile: Profile = .handz, partitions: Int = 1, from: String? = nil, to: String? = nil) throws -> LedgerSnapshot {
        var o = ReplayOptions(profile: profile, asOf: Timestamp.parse(at)!)
        o.partitions = partitions
        o.from = from.flatMap { Timestamp.parse($0) }
        o.to = to.flatMap { Timestamp.parse($0) }
        return try Replay.run(directory: path, options: o)
    }
}
