import Platform
/// Accepting a shorter log, explicitly (`replay-tool recover`): what a damaged log would keep,
/// what it would drop, and, when the operator accepts the loss, the cut itself, with every
/// dropped byte kept in a file beside the log (`DIR/recovered/`). Nothing else ever cuts a
/// committed record: a writer cuts only a torn or uncommitted tail past a readable committed head.
public enum LogRecovery {
    /// What a recovery keeps and drops.
    public struct Plan: Sendable, Equatable {
        /// The last record kept: every record up to it is whole, passes its CRCs and chains from position 1.
        public var keep: LogHead
        /// Why the log cannot be used as it is (the first damage, or the tail a writer would not cut); nil when nothing is wrong.
        public var problem: String?
        /// The first dropped byte: a segment and an offset in it (nil when nothing is dropped).
        public var cutSegment: String?
        public var cutOffset: Int = 0
        /// The cut segment is dropped whole, not cut (damage in its header or first frame, and it is
        /// not the first segment): it moves to `DIR/recovered/` with the later ones.
        public var cutSegmentWhole = false
        /// Segments after the cut one, dropped whole.
        public var laterSegments: [String] = []
        /// Bytes dropped in all.
        public var droppedBytes = 0
        /// Whole records among the dropped bytes that passed their checks (committed or not); the
        /// walk stops at a frame whose header fails, so this can be fewer than were committed.
        public var droppedRecords: UInt64 = 0
        /// Committed records the cut loses: how far the committed head (when readable) is past the
        /// last record kept, whether or not their frames can still be read.
        public var lostCommittedRecords: UInt64 = 0
        /// What `segments/committed-head` says now (nil: missing or unreadable).
        public var committedHead: LogHead?
        /// Whether anything would be dropped.
        public var dropsSomething: Bool { cutSegment != nil }
        /// Whether accepting would change the log: drop bytes, or set the committed head to `keep`.
        public var changesLog: Bool { dropsSomething || committedHead != keep }
    }

    /// Reads the log in `directory` (nothing is written) and says what a recovery would keep.
    /// Kept: the whole, checked records from position 1 up to the first damage, and never past a
    /// readable committed head (records past it were never committed).
    public static func plan(directory: String) throws -> Plan {
        let folder = directory + "/segments"
        guard PlatformDirectory.exists(folder) else {
            throw EventStoreError(.invalidArgument, "no log here (missing segments/ folder)", path: directory)
        }
        let report = LogVerifier.verify(directory: directory)
        let line: LogHead?
        switch try CommittedHead.read(path: folder + "/" + CommittedHead.fileName) {
        case .head(let reading): line = reading.head
        default: line = nil
        }
        let names = try PlatformDirectory.list(folder)
            .compactMap { name in LogFormat.basePosition(ofSegmentNamed: name).map { ($0, folder + "/" + name) } }
            .sorted { $0.0 < $1.0 }
        var plan = Plan(keep: LogHead(position: 0, hash: .zero))
        plan.committedHead = line
        plan.problem = report.damage?.description ?? report.tail
        // Walk the frames again, keeping each whole record that chains on, up to the line.
        var running = LogHead(position: 0, hash: .zero)
        var cut: (index: Int, offset: Int)?
        walk: for (i, (base, path)) in names.enumerated() {
            let file = try PlatformFile(path: path, mode: .readOnly)
            let bytes = try file.readBytes(at: 0, count: try file.size())
            let stop: Int? = bytes.withUnsafeBytes { b -> Int? in
                guard (try? LogFormat.checkSegmentHeader(b, path: path)) == base, base == running.position + 1 else { return 0 }
                var offset = LogFormat.segmentHeaderSize
                while true {
                    guard case .record(let body, let length) = LogFormat.frame(in: b, at: offset, maxBodySize: Int(UInt32.max)),
                          body.position == running.position + 1, running.hash.matches(body.previousHash),
                          line.map({ body.position <= $0.position }) ?? true else {
                        return offset == b.count ? nil : offset
                    }
                    running = LogHead(position: body.position, hash: SHA256.hash(body.bytes))
                    offset += length
                }
            }
            if let stop {
                cut = (i, stop)
                break walk
            }
        }
        plan.keep = running
        if let line, line.position > running.position { plan.lostCommittedRecords = line.position - running.position }
        if let line, running.position < line.position, plan.problem == nil {
            plan.problem = CommittedHead.lostRecords(end: running.position, line: line, path: folder).description
        }
        guard let cut else { return plan }
        let (i, offset) = cut
        plan.cutSegment = names[i].1
        plan.cutOffset = offset
        plan.laterSegments = names[(i + 1)...].map(\.1)
        for (k, (_, path)) in names[i...].enumerated() {
            let file = try PlatformFile(path: path, mode: .readOnly)
            let size = try file.size()
            plan.droppedBytes += k == 0 ? max(0, size - offset) : size
            let bytes = try file.readBytes(at: k == 0 ? offset : LogFormat.segmentHeaderSize, count: size)
            plan.droppedRecords += bytes.withUnsafeBytes { b in
                // Whole frames that pass their checks, stepping over a damaged one whose header
                // (its own CRC) still gives its length.
                var n: UInt64 = 0, at = 0
                while at + LogFormat.frameHeaderSize <= b.count {
                    switch LogFormat.frame(in: b, at: at, maxBodySize: Int(UInt32.max)) {
                    case .record(_, let length):
                        n += 1
                        at += length
                    case .damaged where CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[at..<(at + 8)])) == b.le32(at + 8):
                        at += LogFormat.frameHeaderSize + Int(b.le32(at))
                    default:
                        return n
                    }
                }
                return n
            }
        }
        // A segment cut down to its header is dropped whole, unless it is the first.
        if offset <= LogFormat.segmentHeaderSize && i > 0 {
            plan.droppedBytes += plan.cutOffset
            plan.cutOffset = 0
            plan.cutSegmentWhole = true
        }
        return plan
    }

    /// Carries out `plan` (made by `plan(directory:)` just before) under the writer lock: the
    /// dropped bytes are copied to `DIR/recovered/` and synced first, then the log is cut, later
    /// segments move there too, the committed head is set to the last kept record, and the index
    /// files (derived) are removed. Returns the paths of the kept files. Refuses if the log
    /// changed since the plan.
    public static func accept(_ plan: Plan, directory: String, stamp: String) throws -> [String] {
        let lock = try PlatformFile(path: directory + "/writer.lock", mode: .createReadWrite)
        do { try lock.lockExclusive(wait: false) } catch let e as SystemError { throw EventStoreError(e) }
        defer { lock.unlock() }
        guard try Self.plan(directory: directory) == plan else {
            throw EventStoreError(.locked, "the log changed since its recovery plan was made; run recover again", path: directory)
        }
        var written: [String] = []
        if let cutSegment = plan.cutSegment { written = try cut(plan, segment: cutSegment, directory: directory, stamp: stamp) }
        // The new committed head: exactly the last record kept.
        let headPath = directory + "/segments/" + CommittedHead.fileName
        try DurableFile.replace(path: headPath, with: CommittedHead.slot(plan.keep) + CommittedHead.slot(plan.keep))
        // Derived files named the old head; they are rebuilt from the kept records.
        // (A manifest left behind is refused anyway: it names a head this log no longer has.)
        try? PlatformDirectory.remove(directory + "/indexes/" + IndexManifest.fileName)
        // The log changed: the next verify is a full one.
        try PlatformDirectory.remove(directory + "/" + VerifiedMark.fileName)
        return written
    }

    /// Copies the dropped bytes to `DIR/recovered/` (synced), then cuts them from the log.
    private static func cut(_ plan: Plan, segment cutSegment: String, directory: String, stamp: String) throws -> [String] {
        let kept = directory + "/recovered"
        try PlatformDirectory.create(kept)
        var written: [String] = []
        // Copies first, made durable, so a crash in the middle loses nothing.
        let source = try PlatformFile(path: cutSegment, mode: .readWrite)
        let size = try source.size()
        let cutsInPlace = !plan.cutSegmentWhole
        let droppedWhole = (plan.cutSegmentWhole ? [cutSegment] : []) + plan.laterSegments
        if cutsInPlace && size > plan.cutOffset {
            let name = kept + "/\(stamp)-" + Self.fileName(cutSegment) + "-from-\(plan.cutOffset).bin"
            try DurableFile.replace(path: name, with: try source.readBytes(at: plan.cutOffset, count: size - plan.cutOffset))
            written.append(name)
        }
        for path in droppedWhole {
            let name = kept + "/\(stamp)-" + Self.fileName(path)
            try DurableFile.replace(path: name, with: try PlatformDirectory.readFile(path) ?? [])
            written.append(name)
        }
        try PlatformDirectory.sync(kept)
        // Then the cut, from the last segment back.
        for path in droppedWhole.reversed() { try PlatformDirectory.remove(path) }
        if cutsInPlace {
            try source.truncate(to: plan.cutOffset)
            try source.sync()
        }
        try PlatformDirectory.sync(directory + "/segments")
        return written
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
