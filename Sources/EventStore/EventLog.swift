import Platform
/// The open log: segmented, checksummed, hash-chained, append-only files in one directory.
///
/// One `EventLog` is one handle; it is not shared between threads (open one per thread).
/// Across handles and processes, appends are serialised by an advisory lock taken per batch,
/// and each handle catches up with what others appended before it writes.
public final class EventLog {
    /// How the log is opened and tuned.
    public struct Options: Sendable {
        /// A segment rolls when the next batch would take it past this size. Every handle that
        /// adopts the index files reads the last segment again at open, so this bounds that read:
        /// at 16 MiB, at most about 4 ms of CPU.
        public var segmentSize: Int = 16 << 20
        /// The largest record body accepted.
        public var maxRecordSize: Int = 1 << 20
        /// Wait for another writer's lock (true) or fail at once with `.locked` (false).
        public var waitForLock: Bool = true
        /// The clock for `recorded` times, in milliseconds since 1970.
        public var clock: @Sendable () -> Int64 = { platformNowMilliseconds() }
        /// Build the id and stream indexes at open (needed to append and to read one stream).
        /// A read-only scan of the whole log, such as a full rebuild, can do without them: such a
        /// handle checks only the last segment at open, and checks the others as `forEach` reads them.
        public var indexes = true
        /// A read handle that stops at this position, as if the log ended there (a committed head
        /// another handle saw): every handle of one rebuild then folds the same records.
        public var readThrough: UInt64?
        /// The secondary keys records carry (e.g. the user a transfer names), indexed beside streams.
        public var secondaryKeys: SecondaryKeys?
        /// Keep the indexes in files under `DIR/indexes/` (a writer writes them; every handle with
        /// indexes reads them and indexes only the records after the head they cover).
        public var indexFiles = true
        /// A writer writes its in-memory index entries to a new run file once it holds this many.
        public var indexFlushThreshold = 1 << 20
        /// A read handle that indexed records the files did not cover saves them if the log's lock
        /// is free at once (it never waits for a writer).
        public var readersSaveIndexes = true
        /// A read handle that adopts the index files reads the last segment's records behind the
        /// covered head again (CRC32C, positions) at open. A reader that checks every record it
        /// serves against something else (proofs: a signed Merkle root) can skip that pass; a
        /// writer always makes it.
        public var checksLastSegmentAtOpen = true
        public init() {}
    }

    /// Read-only handles never repair; writer handles cut a torn tail on open.
    public enum Access: Sendable { case read, write }

    struct Segment {
        var base: UInt64
        var path: String
        /// Offset just after the last committed frame.
        var end: Int
    }

    struct Location: Hashable {
        var segment: UInt32
        var offset: UInt32
    }

    /// The log's folder.
    public let directory: String
    let options: Options
    let access: Access
    let lockFile: PlatformFile?
    var segments: [Segment] = []
    /// Last position and its chain hash (a read handle without indexes knows the hash only when
    /// its last segment holds records).
    public internal(set) var head = LogHead(position: 0, hash: .zero)
    /// Index entries of the records after the run files' covered head.
    var recent = RecentEntries()
    /// The run files this handle reads (from the manifest it loaded or wrote), and its generation.
    var runs: [IndexRun] = []
    var manifestGeneration: UInt64?
    /// Exact last versions of the streams this handle has looked up or indexed.
    var versions: [String: UInt64] = [:]
    /// Where the head record's frame starts (packed location), once known.
    var headLocation: UInt64?
    /// Where every 1,024th record of each scanned segment starts (counted from the segment's
    /// base), in position order, with its recorded time: catch-up seeks to the nearest sample at
    /// or below its position.
    var positionSamples: [(position: UInt64, location: Location, recorded: Int64)] = []
    static let sampleInterval: UInt64 = 1024
    /// Frames read and checked by `forEach` since this handle opened (what a catch-up cost).
    public internal(set) var framesRead = 0
    /// What the committed-head checkpoint said at the last catch-up (nil: no readable checkpoint).
    public internal(set) var committedHead: LogHead?
    /// Why the checkpoint could not be read, if a file was there but neither slot was whole.
    public internal(set) var committedHeadProblem: String?
    /// The writer's checkpoint file, rewritten after every committed batch.
    var headWriter: CommittedHeadWriter?
    /// What opening for append cut, if anything.
    public internal(set) var recovery = RecoveryReport()
    /// For tests only: false makes closing the handle leave its index entries unsaved, as a crash does.
    @_spi(Testing) public var savesIndexesOnClose = true
    /// The partition the log declares it holds, once this handle has read it (`EventLog+Partition`).
    public internal(set) var partitionDeclaration: StreamPartition?
    /// For tests only: write only this many bytes of the next batches, then fail as a full disk would.
    @_spi(Testing) public var failWritesAfterBytes: Int?

    var segmentDirectory: String { directory + "/segments" }
    var committedHeadPath: String { segmentDirectory + "/" + CommittedHead.fileName }

    /// Opens (creating if needed, for `.write`) the log in `directory`.
    public init(directory: String, access: Access = .write, options: Options = Options()) throws {
        guard options.segmentSize < Int(UInt32.max), options.segmentSize > LogFormat.segmentHeaderSize else {
            throw EventStoreError(.invalidArgument, "segment size must be between 33 bytes and 4 GiB")
        }
        self.directory = directory
        self.options = options
        self.access = access
        if access == .write && !options.indexes {
            throw EventStoreError(.invalidArgument, "a writer needs its indexes (duplicate ids, expected versions)")
        }
        if access == .write && options.readThrough != nil {
            throw EventStoreError(.invalidArgument, "a writer reads the whole log")
        }
        guard !directory.isEmpty else { throw EventStoreError(.invalidArgument, "the log's folder is an empty path") }
        if access == .write {
            try Self.checkIsLogFolder(directory)
            try PlatformDirectory.create(directory + "/segments")
            lockFile = try PlatformFile(path: directory + "/writer.lock", mode: .createReadWrite)
        } else {
            guard PlatformDirectory.exists(directory + "/segments") else {
                throw EventStoreError(.invalidArgument, "no log here (missing segments/ folder)", path: directory)
            }
            lockFile = nil
        }
        try withWriterLock { () throws in
            try loadIndexFiles()
            try catchUpRepairingIndexes()
            if access == .write { try openCommittedHead() }
        }
        if access == .read && recent.count > 0 && options.readersSaveIndexes { try? saveIndexesIfUnlocked(reloadIfStale: true) }
    }

    deinit {
        if access == .write && recent.count > 0 && savesIndexesOnClose { try? saveIndexes() }
    }

    /// The entries a log's folder holds; a folder with anything else and no `segments/` belongs to
    /// another program, and a writer will not make a log inside it.
    static let logFolderEntries: Set<String> = ["segments", "writer.lock", "projections", "rejected", "indexes", "recovered", appFileName, "verified", partitionFileName, "proofs"]

    static func checkIsLogFolder(_ directory: String) throws {
        guard PlatformDirectory.exists(directory) else { return }
        guard PlatformDirectory.isDirectory(directory) else {
            throw EventStoreError(.invalidArgument, "not a log folder: it is a file", path: directory)
        }
        guard !PlatformDirectory.exists(directory + "/segments") else { return }
        let foreign = try PlatformDirectory.list(directory).filter { !logFolderEntries.contains($0) }.sorted()
        guard foreign.isEmpty else {
            throw EventStoreError(.invalidArgument, "not a log folder: it holds \(foreign.prefix(3).joined(separator: ", "))\(foreign.count > 3 ? ", …" : "") and no segments/ (give an empty or new folder)", path: directory)
        }
    }

    /// Opens the writer's checkpoint and brings it up to the head: records past it that are whole
    /// are made durable first (a crash may have come between their fsync and the checkpoint's).
    private func openCommittedHead() throws {
        let found = try CommittedHead.read(path: committedHeadPath)
        let writer = CommittedHeadWriter(path: committedHeadPath, current: found)
        // A new log gets its checkpoint at once (position 0): from then on a missing one means
        // it was removed, and a writer never takes that for leave to cut whole records.
        let isNew = try segments.isEmpty && PlatformDirectory.list(segmentDirectory).isEmpty
        if isNew, case .none = found {
            try writer.write(head)
            committedHead = head
        } else if head.position > 0 && (committedHead.map { $0.position < head.position } ?? true) {
            if let last = segments.last { try PlatformFile(path: last.path, mode: .readWrite).sync() }
            try writer.write(head)
            committedHead = head
        }
        headWriter = writer
    }

    /// Runs `body` holding the advisory writer lock (a no-op lock for read handles).
    func withWriterLock<T>(_ body: () throws -> T) throws -> T {
        guard let lockFile else { return try body() }
        do { try lockFile.lockExclusive(wait: options.waitForLock) } catch let e as SystemError { throw EventStoreError(e) }
        defer { lockFile.unlock() }
        return try body()
    }

    /// Picks up records appended by other handles since this one last looked.
    public func refresh() throws {
        try withWriterLock { () throws in try catchUpRepairingIndexes() }
    }

    /// The largest record body this handle accepts.
    public var maxRecordSize: Int { options.maxRecordSize }

    /// The bytes a record takes in the log, to check against `maxRecordSize` before appending.
    public static func recordSize(id: String, stream: String, payload: Int) -> Int {
        LogFormat.bodyFixedSize + id.utf8.count + stream.utf8.count + payload
    }

    /// The last version of a stream (0 if it has no records).
    public func version(of stream: String) throws -> UInt64 {
        try repairingIndexes { try lookUpVersion(of: stream) }
    }

    /// The position of the record with this id, if it is in the log.
    public func position(ofID id: String) throws -> UInt64? {
        try repairingIndexes { try lookUpPosition(ofID: id) }
    }

    static func idHash(_ id: String) -> UInt64 { FNV1a.hash(id.utf8) }

    func indexPosition(_ position: UInt64, at location: Location, recorded: Int64) {
        if (position - segments[Int(location.segment)].base) % Self.sampleInterval == 0 {
            positionSamples.append((position, location, recorded))
        }
    }

    /// Where a scan for `position` starts: the nearest sample at or below it, or else the start of
    /// the last segment whose base is at or below it (segments a handle without indexes did not scan).
    func seekPoint(for position: UInt64) -> (segment: Int, offset: Int, position: UInt64) {
        var low = 0, high = positionSamples.count
        while low < high {
            let mid = (low + high) / 2
            if positionSamples[mid].position <= position { low = mid + 1 } else { high = mid }
        }
        let segment = max(0, segments.lastIndex { $0.base <= position } ?? 0)
        if low > 0, case let sample = positionSamples[low - 1], Int(sample.location.segment) == segment {
            return (segment, Int(sample.location.offset), sample.position)
        }
        return (segment, LogFormat.segmentHeaderSize, segments.isEmpty ? 1 : segments[segment].base)
    }
}
