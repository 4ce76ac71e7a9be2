import Platform
extension EventLog {
    /// Brings this handle up to what is on disk: new segments, new committed records.
    /// A writer handle (under the lock) cuts a torn or uncommitted tail off the last segment.
    func catchUp() throws {
        // The checkpoint first: it is written after the records it names, so they are on disk by now.
        switch try CommittedHead.read(path: committedHeadPath) {
        case .none: committedHead = nil
        case .unreadable(let why): committedHead = nil; committedHeadProblem = why
        case .head(let reading): committedHead = reading.head; committedHeadProblem = nil
        }
        let names = try PlatformDirectory.list(segmentDirectory)
            .compactMap { name in LogFormat.basePosition(ofSegmentNamed: name).map { ($0, name) } }
            .filter { entry in options.readThrough.map { entry.0 <= $0 } ?? true }
            .sorted { $0.0 < $1.0 }
        guard names.count >= segments.count else {
            throw EventStoreError(.damaged, "segment files disappeared (\(segments.count) known, \(names.count) present)", path: segmentDirectory)
        }
        var skipped = false
        for (i, (base, name)) in names.enumerated() {
            let path = segmentDirectory + "/" + name
            if i < segments.count {
                guard segments[i].base == base else {
                    throw EventStoreError(.damaged, "segment list changed under this handle", path: path)
                }
                if i < segments.count - 1 { continue }
            } else if access == .read && !options.indexes && i < names.count - 1 {
                // A read handle without indexes checks sealed segments as it reads them (forEach checks
                // every frame and that each segment starts where the previous one ended); here, only the header.
                segments.append(Segment(base: base, path: path, end: 0))
                try checkSealed(segment: i)
                skipped = true
                continue
            } else {
                if skipped { head.position = base - 1 }
                guard base == head.position + 1 else {
                    throw EventStoreError(.damaged, "segment starts at position \(base) but the previous one ends at \(head.position) (missing or extra segment)", path: path, offset: 0, position: head.position + 1)
                }
                segments.append(Segment(base: base, path: path, end: 0))
            }
            try scan(segment: i, isLast: i == names.count - 1)
            // A writer indexing many records (a first open, a long tail) writes runs as it goes.
            if usesIndexFiles && recent.count >= options.indexFlushThreshold {
                if access == .write {
                    try saveIndexesLocked(reloadIfStale: false)
                } else if options.readersSaveIndexes {
                    try? saveIndexesIfUnlocked(reloadIfStale: false)
                }
            }
        }
        if let line = committedHead, head.position < line.position, options.readThrough.map({ $0 >= line.position }) ?? true {
            throw CommittedHead.lostRecords(end: head.position, line: line, path: segments.last?.path ?? segmentDirectory)
        }
        // Every writer keeps the checkpoint from a log's creation on: a log with records and none
        // cannot say whether committed records were lost (a deleted checkpoint must not make a
        // shorter log pass for whole).
        if committedHead == nil && head.position > 0 && options.readThrough == nil {
            throw CommittedHead.missing(records: head.position, problem: committedHeadProblem, path: committedHeadPath)
        }
    }

    /// Checks a sealed segment's header and takes its size as its committed end.
    private func checkSealed(segment i: Int) throws {
        let file = try PlatformFile(path: segments[i].path, mode: .readOnly)
        let size = try file.size()
        guard size >= LogFormat.segmentHeaderSize else { throw headerCutShort(size, segment: i) }
        try checkHeader(of: file, segment: i)
        segments[i].end = size
    }

    private func headerCutShort(_ size: Int, segment i: Int) -> EventStoreError {
        EventStoreError(.damaged, "segment header is cut short (\(size) bytes) in a segment that is not the last", path: segments[i].path, offset: 0)
    }

    /// Checks segment `i`'s header (magic, version, CRC) and that it names the base its file name gives.
    func checkHeader(of file: PlatformFile, segment i: Int) throws {
        try Self.checkHeader(of: file, path: segments[i].path, base: segments[i].base)
    }

    /// Checks the header of the segment file at `path`, whose name says it starts at `base`.
    static func checkHeader(of file: PlatformFile, path: String, base named: UInt64) throws {
        let header = try file.readBytes(at: 0, count: LogFormat.segmentHeaderSize)
        let base = try header.withUnsafeBytes { (b) throws in try LogFormat.checkSegmentHeader(b, path: path) }
        guard base == named else {
            throw EventStoreError(.damaged, "segment header says position \(base), its name says \(named)", path: path, offset: 16)
        }
    }

    private struct Pending {
        var id: String
        var stream: String
        var position: UInt64
        var version: UInt64
        var offset: Int
        var recorded: Int64
        var keys: [String]
    }

    /// Scans segment `i` from its known committed end to the end of the file.
    private func scan(segment i: Int, isLast: Bool) throws {
        let path = segments[i].path
        let file = try PlatformFile(path: path, mode: access == .write ? .readWrite : .readOnly)
        let size = try file.size()
        var start = segments[i].end
        if start == 0 {
            if size < LogFormat.segmentHeaderSize {
                guard isLast else { throw headerCutShort(size, segment: i) }
                if access == .write {
                    let header = LogFormat.segmentHeader(base: segments[i].base)
                    try file.truncate(to: 0)
                    try header.withUnsafeBytes { (b) throws in try file.writeAll(b, at: 0) }
                    try file.sync()
                    recovery = RecoveryReport(truncatedBytes: size, reason: "segment header cut short; rewritten", segment: path)
                    segments[i].end = LogFormat.segmentHeaderSize
                }
                return
            }
            try checkHeader(of: file, segment: i)
            start = LogFormat.segmentHeaderSize
            segments[i].end = start
        }
        guard size > start else { return }
        let bytes = try file.readBytes(at: start, count: size - start)
        var committed = 0
        var tail: String?
        // The chain: each record must commit to the one before (known unless this handle skipped
        // the sealed segments before this one); the head's hash is the last commit's.
        var running: SHA256.Digest? = head.position == 0 ? .zero : (head.hash == .zero ? nil : head.hash)
        var committedHash: SHA256.Digest?
        var pending: [Pending] = []
        var pendingVersions: [String: UInt64] = [:]
        var next = head.position + 1
        var capped = false
        let line = committedHead
        // Past the committed head, in the last segment, bytes that are not whole valid frames are a torn tail.
        func pastLine(_ position: UInt64) -> Bool { isLast && line.map { position > $0.position } ?? false }
        try bytes.withUnsafeBytes { (b) throws in
            var offset = 0
            scanning: while true {
                switch LogFormat.frame(in: b, at: offset, maxBodySize: Int(UInt32.max)) {
                case .end:
                    break scanning
                case .torn(let why):
                    if let line, next <= line.position {
                        throw EventStoreError(.damaged, "\(why), at or before the committed head (position \(line.position)): committed records were lost", path: path, offset: start + offset, position: next)
                    }
                    tail = why
                    break scanning
                case .damaged(let why):
                    guard pastLine(next) else {
                        throw EventStoreError(.damaged, why, path: path, offset: start + offset, position: next)
                    }
                    tail = "\(why), past the committed head (position \(line!.position))"
                    break scanning
                case .record(let body, let length):
                    if let cap = options.readThrough, body.position > cap {
                        capped = true
                        break scanning
                    }
                    guard body.position == next else {
                        if pastLine(next) {
                            tail = "record holds position \(body.position) where \(next) was expected, past the committed head (position \(line!.position))"
                            break scanning
                        }
                        throw EventStoreError(.damaged, "record holds position \(body.position) where \(next) was expected", path: path, offset: start + offset, position: next)
                    }
                    if let r = running, !r.matches(body.previousHash) {
                        if pastLine(next) {
                            tail = "record \(next) does not commit to its predecessor, past the committed head (position \(line!.position))"
                            break scanning
                        }
                        throw EventStoreError(.damaged, "hash chain broken: record does not commit to its predecessor (altered or forged; run verify)", path: path, offset: start + offset, position: next)
                    }
                    let hash = SHA256.hash(body.bytes)
                    running = hash
                    if let line, body.position == line.position, hash != line.hash {
                        throw EventStoreError(.damaged, "record \(next) does not hash to the committed head's hash (segments/\(CommittedHead.fileName)): the log was altered or replaced", path: path, offset: start + offset, position: next)
                    }
                    if options.indexes {
                        let stream = String(decoding: body.stream, as: UTF8.self)
                        let expected = try (pendingVersions[stream] ?? lookUpVersion(of: stream)) + 1
                        guard body.version == expected else {
                            throw EventStoreError(.damaged, "stream '\(stream)' version \(body.version) where \(expected) was expected", path: path, offset: start + offset, position: next)
                        }
                        pendingVersions[stream] = expected
                        pending.append(Pending(id: String(decoding: body.id, as: UTF8.self), stream: stream, position: next, version: expected,
                                               offset: start + offset, recorded: body.recorded, keys: secondaryKeys(stream: body.stream, payload: body.payload)))
                    } else {
                        pending.append(Pending(id: "", stream: "", position: next, version: body.version, offset: start + offset, recorded: body.recorded, keys: []))
                    }
                    next += 1
                    offset += length
                    // The committed head marks a commit point too (a log accepted shorter by `recover`).
                    if body.isCommit || line?.position == body.position {
                        for p in pending {
                            let location = Location(segment: UInt32(i), offset: UInt32(p.offset))
                            if options.indexes {
                                indexRecord(id: p.id, stream: p.stream, version: p.version, keys: p.keys, at: location)
                            }
                            indexPosition(p.position, at: location, recorded: p.recorded)
                        }
                        head.position = body.position
                        headLocation = Self.pack(Location(segment: UInt32(i), offset: UInt32(start + offset - length)))
                        committedHash = hash
                        pending.removeAll(keepingCapacity: true)
                        pendingVersions.removeAll(keepingCapacity: true)
                        committed = offset
                    }
                }
            }
            if let committedHash { head.hash = committedHash }
        }
        if tail == nil && !pending.isEmpty { tail = "\(pending.count) whole record(s) of a batch that was never committed" }
        segments[i].end = start + committed
        if capped { return }
        guard let tail else { return }
        guard isLast else {
            throw EventStoreError(.damaged, "\(tail), in a segment that is not the last", path: path, offset: start + committed, position: head.position + 1)
        }
        if let line, head.position < line.position {
            throw EventStoreError(.damaged, "\(tail) after position \(head.position), at or before the committed head (position \(line.position)): committed records were lost", path: path, offset: start + committed, position: head.position + 1)
        }
        if access == .write {
            // Without a readable committed head, whole records past the last commit flag may be
            // committed ones (the checkpoint deleted or lost): a writer does not guess.
            if committedHead == nil && !pending.isEmpty {
                throw EventStoreError(.damaged, "\(pending.count) whole record(s) follow the last commit flag and segments/\(CommittedHead.fileName) is missing or unreadable: a writer will not cut records that may have been committed; `replay-tool recover` shows what accepting the log would keep", path: path, offset: start + committed, position: head.position + 1)
            }
            // The cut bytes are kept beside the log, as every dropped input is.
            try keepCutBytes(file: file, from: start + committed, to: size)
            try file.truncate(to: start + committed)
            try file.sync()
            recovery = RecoveryReport(truncatedBytes: size - start - committed, reason: tail, segment: path)
        }
    }

    /// Copies `from..<to` of a segment about to be cut to `DIR/recovered/` (durably, first).
    private func keepCutBytes(file: PlatformFile, from: Int, to: Int) throws {
        guard to > from else { return }
        let name = directory + "/recovered/" + "cut-\(options.clock())-" + String(file.path.split(separator: "/").last ?? "") + "-from-\(from).bin"
        try DurableFile.replace(path: name, with: try file.readBytes(at: from, count: to - from))
    }
}
