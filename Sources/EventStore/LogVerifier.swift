import Platform
/// What `verify` found: counts, the head an auditor can publish, and the first damage if any.
public struct VerificationReport: Sendable {
    /// The segments read (or, for a scrub, passed over as checked before), up to the damage if any.
    public var segments = 0
    /// The segments in the log's folder: more than `segments` when damage stopped the check.
    public var segmentsInLog = 0
    public var records: UInt64 = 0
    /// The last position whose frame, CRC, position, version and chain link were checked,
    /// committed or not: past `records` when damage cuts a batch short before its commit.
    public var checkedPosition: UInt64 = 0
    public var bytes = 0
    public var head = LogHead(position: 0, hash: .zero)
    /// The first damage found; nothing after it is trusted.
    public var damage: EventStoreError?
    /// A torn or uncommitted tail at the end of the last segment (cut on the next open for append).
    public var tail: String?
    /// What the committed-head checkpoint says (nil: no checkpoint, as in logs written before it existed).
    public var committedHead: LogHead?
    /// The partition the log declares it holds (its file `partition`); every stream was checked to be in it.
    public var partition: StreamPartition?
    /// For a scrub (`verify(directory:since:)`): the verified head it started after; records up
    /// to it were checked by an earlier verify and only their last one is hashed again here.
    public var since: LogHead?
    public var isIntact: Bool { damage == nil }
}

/// Checks a whole log without opening it for append: segment headers, every frame's CRC32C,
/// gapless positions and stream versions, and the SHA-256 hash chain from record 1 to the head.
public enum LogVerifier {
    /// Verifies the log in `directory`; with `since` (a head an earlier verify found intact),
    /// checks only what follows it: segments before the one holding the next position are not
    /// read, the record at `since` must still hash to its hash, and every record after it is
    /// checked as a full verify checks it, except stream versions (they need every record).
    public static func verify(directory: String, since: LogHead? = nil) -> VerificationReport {
        var report = VerificationReport()
        report.since = since
        do {
            try run(directory: directory, since: since, into: &report)
        } catch let error as EventStoreError {
            report.damage = error
        } catch let error as SystemError {
            report.damage = EventStoreError(error)
        } catch {
            report.damage = EventStoreError(.io, "\(error)", path: directory)
        }
        return report
    }

    private static func run(directory: String, since: LogHead?, into report: inout VerificationReport) throws {
        let folder = directory + "/segments"
        guard PlatformDirectory.exists(folder) else {
            throw EventStoreError(.invalidArgument, "no log here (missing segments/ folder)", path: directory)
        }
        var line: LogHead?
        switch try CommittedHead.read(path: folder + "/" + CommittedHead.fileName) {
        case .none: break
        case .unreadable(let why): throw EventStoreError(.damaged, why, path: folder + "/" + CommittedHead.fileName)
        case .head(let reading): line = reading.head
        }
        report.committedHead = line
        defer {
            if report.damage == nil, line == nil, report.records > 0 {
                report.damage = CommittedHead.missing(records: report.records, problem: nil, path: folder + "/" + CommittedHead.fileName)
            }
            if report.damage == nil, let line, report.head.position < line.position {
                report.damage = CommittedHead.lostRecords(end: report.head.position, line: line, path: folder)
                report.tail = nil   // what follows the last commit is no torn tail here: it is never cut
            }
        }
        let names = try PlatformDirectory.list(folder)
            .compactMap { name in LogFormat.basePosition(ofSegmentNamed: name).map { ($0, name) } }
            .sorted { $0.0 < $1.0 }
        report.segmentsInLog = names.count
        var versions: [String: UInt64] = [:]
        report.partition = try EventLog.declaredPartition(directory: directory)
        defer {
            // A partition log holds only its partition's users (checked on every append; here for a copied or edited folder).
            if report.damage == nil, let declared = report.partition, let foreign = versions.keys.filter({ !declared.contains($0) }).min() {
                report.damage = EventStoreError(.damaged, "stream '\(foreign.prefix(80))' is in partition \(KafkaPartitioner.partition(of: foreign, count: declared.count))/\(declared.count), not in \(declared), which the log declares", path: directory + "/" + EventLog.partitionFileName)
            }
        }
        // A scrub starts at the segment holding the position after the verified head.
        let start = since.map { s in names.lastIndex { $0.0 <= s.position + 1 } ?? 0 } ?? 0
        var linkKnown = true
        defer {
            if report.damage == nil, let since, report.checkedPosition < since.position {
                report.damage = EventStoreError(.damaged, "the log ends at position \(report.checkedPosition), before position \(since.position) an earlier verify found intact: records were lost", path: folder, position: report.checkedPosition + 1)
            }
        }
        for (i, (base, name)) in names.enumerated() {
            let path = folder + "/" + name
            let isLast = i == names.count - 1
            if i < start {
                report.segments += 1
                report.bytes += try PlatformFile(path: path, mode: .readOnly).size()
                continue
            }
            if i == start, let since, start > 0 || since.position > 0 {
                // The first record read here commits to one this scrub does not read.
                report.head = LogHead(position: base - 1, hash: .zero)
                linkKnown = base == 1
            }
            let file = try PlatformFile(path: path, mode: .readOnly)
            let bytes = try file.readBytes(at: 0, count: try file.size())
            report.segments += 1
            report.bytes += bytes.count
            if bytes.count < LogFormat.segmentHeaderSize && isLast {
                report.tail = "segment header cut short (\(bytes.count) bytes)"
                return
            }
            try bytes.withUnsafeBytes { (b) throws in
                let headerBase = try LogFormat.checkSegmentHeader(b, path: path)
                guard headerBase == base, base == report.head.position + 1 else {
                    throw EventStoreError(.damaged, "segment starts at position \(headerBase) (named \(base)) but the previous one ends at \(report.head.position)", path: path, offset: 16, position: report.head.position + 1)
                }
                var offset = LogFormat.segmentHeaderSize
                var committed = report.head
                var running = report.head
                var uncommitted = 0
                var pendingVersions: [String: UInt64] = [:]
                // Past the committed head, in the last segment, bytes that are not whole valid frames are a torn tail.
                func pastLine(_ position: UInt64) -> Bool { isLast && line.map { position > $0.position } ?? false }
                while true {
                    let next = running.position + 1
                    switch LogFormat.frame(in: b, at: offset, maxBodySize: Int(UInt32.max)) {
                    case .end:
                        break
                    case .torn(let why):
                        guard isLast, line.map({ next > $0.position }) ?? true else {
                            throw EventStoreError(.damaged, isLast ? "\(why), at or before the committed head: committed records were lost" : why, path: path, offset: offset, position: next)
                        }
                        report.tail = "\(why) at \(path)@\(offset)"
                    case .damaged(let why):
                        guard pastLine(next) else { throw EventStoreError(.damaged, why, path: path, offset: offset, position: next) }
                        report.tail = "\(why), past the committed head (a torn write), at \(path)@\(offset)"
                    case .record(let body, let length):
                        guard body.position == next else {
                            if pastLine(next) {
                                report.tail = "record holds position \(body.position) where \(next) was expected, past the committed head (a torn write), at \(path)@\(offset)"
                                break
                            }
                            throw EventStoreError(.damaged, "record holds position \(body.position) where \(next) was expected (record removed, inserted or reordered)", path: path, offset: offset, position: next)
                        }
                        guard !linkKnown || running.hash.matches(body.previousHash) else {
                            throw EventStoreError(.damaged, "hash chain broken: record does not commit to its predecessor", path: path, offset: offset, position: next)
                        }
                        linkKnown = true
                        let stream = String(decoding: body.stream, as: UTF8.self)
                        let expected = (pendingVersions[stream] ?? versions[stream] ?? 0) + 1
                        guard since != nil || body.version == expected else {
                            throw EventStoreError(.damaged, "stream '\(stream)' version \(body.version) where \(expected) was expected", path: path, offset: offset, position: next)
                        }
                        pendingVersions[stream] = expected
                        running = LogHead(position: next, hash: SHA256.hash(body.bytes))
                        report.checkedPosition = next
                        if let since, next == since.position, running.hash != since.hash {
                            throw EventStoreError(.damaged, "record \(next) no longer hashes to the hash an earlier verify found (the log was altered since)", path: path, offset: offset, position: next)
                        }
                        if let line, next == line.position, running.hash != line.hash {
                            throw EventStoreError(.damaged, "record \(next) does not hash to the committed head's hash (segments/\(CommittedHead.fileName)): the log was altered or replaced", path: path, offset: offset, position: next)
                        }
                        offset += length
                        uncommitted += 1
                        if body.isCommit || line?.position == next {
                            committed = running
                            // Counted as they are checked, so a report that stops at damage says how far the log held.
                            report.head = committed
                            report.records = committed.position
                            uncommitted = 0
                            for (s, v) in pendingVersions { versions[s] = v }
                            pendingVersions.removeAll(keepingCapacity: true)
                        }
                        continue
                    }
                    break
                }
                if uncommitted > 0 {
                    guard isLast else {
                        throw EventStoreError(.damaged, "\(uncommitted) record(s) of an uncommitted batch in a segment that is not the last", path: path, offset: offset, position: committed.position + 1)
                    }
                    if report.tail == nil { report.tail = "\(uncommitted) whole record(s) of a batch that was never committed, in \(path)" }
                }
            }
        }
    }
}
