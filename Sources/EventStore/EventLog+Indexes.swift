import Platform
/// The persistent indexes (docs/log-format.md, "Index files"): run files of sorted (key hash,
/// location) entries for ids, streams and secondary keys, and a manifest naming the log head they
/// cover. A handle loads them at open, checks the covered head against the log, and indexes only
/// the records after it, in memory (`recent`); a writer writes those out as a new run (merging runs
/// of similar size) once it holds `indexFlushThreshold` of them, when asked (`saveIndexes`), and
/// when it closes. A run or manifest that fails any check makes the handle drop the files and index
/// the segments again: the segments stay the only source of truth.
extension EventLog {
    var indexDirectory: String { directory + "/indexes" }
    var manifestPath: String { indexDirectory + "/" + IndexManifest.fileName }
    var keysName: String { options.secondaryKeys?.name ?? "" }
    var usesIndexFiles: Bool { options.indexes && options.indexFiles && options.readThrough == nil }

    static func pack(_ l: Location) -> UInt64 { UInt64(l.segment) << 32 | UInt64(l.offset) }
    static func unpack(_ v: UInt64) -> Location { Location(segment: UInt32(v >> 32), offset: UInt32(truncatingIfNeeded: v)) }

    /// Whether this handle can answer `records(inStream:)` and `records(withKey:)` for the
    /// secondary-key function named `keys`.
    public func isIndexed(withKeys keys: String) -> Bool { options.indexes && keysName == keys }

    // MARK: Loading

    /// Adopts the index files if they cover a head of this log; otherwise leaves the handle empty
    /// (the scan that follows indexes every record). Damage the last segment's check finds is the
    /// log's, whatever the index files say: it is thrown at once, not after a scan of every segment.
    func loadIndexFiles() throws {
        guard usesIndexFiles else { return }
        for _ in 0..<3 {   // a writer may replace the manifest and remove its runs between our two reads
            guard let bytes = try? PlatformDirectory.readFile(manifestPath),
                  case .success(let manifest) = IndexManifest.decode(bytes),
                  manifest.keysName == keysName else { return }
            var opened: [IndexRun] = []
            do {
                for r in manifest.runs {
                    opened.append(try IndexRun(path: indexDirectory + "/" + IndexManifest.runName(kind: r.kind, nonce: r.nonce),
                                               kind: r.kind, nonce: r.nonce, count: r.count))
                }
            } catch {
                if let again = try? PlatformDirectory.readFile(manifestPath), again != bytes { continue }
                return
            }
            do {
                if try adopt(manifest, runs: opened) { return }
            } catch let damage as LastSegmentDamage {
                resetIndexState()
                throw damage.error
            } catch {}
            resetIndexState()
            return
        }
    }

    /// Takes `manifest` as this handle's starting point if the log holds its head where it says.
    private func adopt(_ manifest: IndexManifest, runs opened: [IndexRun]) throws -> Bool {
        let head = manifest.head
        let location = Self.unpack(manifest.headLocation)
        guard head.position > 0, !manifest.segmentBases.isEmpty, Int(location.segment) == manifest.segmentBases.count - 1 else { return false }
        let names = try PlatformDirectory.list(segmentDirectory)
            .compactMap { name in LogFormat.basePosition(ofSegmentNamed: name).map { ($0, name) } }
            .sorted { $0.0 < $1.0 }
        guard names.count >= manifest.segmentBases.count,
              zip(names, manifest.segmentBases).allSatisfy({ $0.0 == $1 }),
              manifest.segmentBases.first == 1 else { return false }
        // One open per sealed segment, for its size and its header.
        var adopted: [Segment] = []
        for (i, (base, name)) in names.prefix(manifest.segmentBases.count).enumerated() {
            let path = segmentDirectory + "/" + name
            let file = try PlatformFile(path: path, mode: .readOnly)
            let size = try file.size()
            adopted.append(Segment(base: base, path: path, end: size))
            guard i < manifest.segmentBases.count - 1 else { break }
            if size <= LogFormat.segmentHeaderSize { return false }
            try Self.checkHeader(of: file, path: path, base: base)
        }
        // The covered head's record must be at its location and hash to its hash.
        let last = adopted.count - 1
        let file = try PlatformFile(path: adopted[last].path, mode: .readOnly)
        let offset = Int(location.offset)
        guard offset >= LogFormat.segmentHeaderSize, offset + LogFormat.frameHeaderSize <= adopted[last].end else { return false }
        let header = try file.readBytes(at: offset, count: LogFormat.frameHeaderSize)
        let length = Int(header.withUnsafeBytes { $0.le32(0) })
        guard offset + LogFormat.frameHeaderSize + length <= adopted[last].end else { return false }
        let frame = try file.readBytes(at: offset, count: LogFormat.frameHeaderSize + length)
        let matches = frame.withUnsafeBytes { b -> Bool in
            guard case .record(let body, let n) = LogFormat.frame(in: b, at: 0, maxBodySize: Int(UInt32.max)), n == frame.count,
                  body.position == head.position, body.isCommit else { return false }
            return SHA256.hash(body.bytes) == head.hash
        }
        guard matches else { return false }
        adopted[last].end = offset + frame.count
        // The last segment's records behind the covered head are read again, frame by frame
        // (CRC32C, positions): damage there is found by every handle, not only by `verify`.
        if options.checksLastSegmentAtOpen || access == .write {
            // The sampled record nearest the middle, where a second core starts its half.
            let middle = adopted[last].end / 2
            let midway = manifest.samples.lazy.map { ($0.position, Self.unpack($0.location)) }
                .filter { $0.1.segment == location.segment }
                .min { abs(Int($0.1.offset) - middle) < abs(Int($1.1.offset) - middle) }
            do {
                try Self.checkFramesOnBothCores(of: file, path: adopted[last].path, from: LogFormat.segmentHeaderSize, to: adopted[last].end,
                                                firstPosition: adopted[last].base, midway: midway.map { (position: $0.0, offset: Int($0.1.offset)) })
            } catch let error as EventStoreError where error.code == .damaged {
                throw LastSegmentDamage(error: error)
            }
        }
        segments = adopted
        try checkHeader(of: file, segment: last)
        self.head = head
        headLocation = manifest.headLocation
        runs = opened
        manifestGeneration = manifest.generation
        positionSamples = manifest.samples.map { ($0.position, Self.unpack($0.location), $0.recorded) }
        return true
    }

    /// Damage in the committed frames of the segment holding the index files' head: the head
    /// itself checked out, so these are the log's records, damaged.
    private struct LastSegmentDamage: Error {
        let error: EventStoreError
    }

    /// Forgets everything this handle indexed (before indexing the segments again).
    func resetIndexState() {
        segments = []
        head = LogHead(position: 0, hash: .zero)
        headLocation = nil
        recent = RecentEntries()
        runs = []
        manifestGeneration = nil
        versions = [:]
        positionSamples = []
    }

    /// Catch-up that, should an index file fail a check while it is used, drops the files and
    /// indexes the segments again.
    func catchUpRepairingIndexes() throws {
        do {
            try catchUp()
        } catch let damaged as IndexRun.Damaged {
            try rebuildIndexes(because: damaged)
        }
    }

    /// Runs a lookup; if an index file fails a check, rebuilds the indexes from the segments and runs it again.
    func repairingIndexes<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let damaged as IndexRun.Damaged {
            try rebuildIndexes(because: damaged)
            return try body()
        }
    }

    private func rebuildIndexes(because damaged: IndexRun.Damaged) throws {
        // Only a writer, under the lock, removes the files; a reader indexes again in memory and
        // leaves the folder as it found it.
        if access == .write { try? PlatformDirectory.remove(manifestPath) }
        resetIndexState()
        try catchUp()
        _ = damaged
    }

    // MARK: Recording

    /// Adds one committed record to the in-memory entries.
    func indexRecord(id: String, stream: String, version: UInt64, keys: [String], at location: Location) {
        recent.add(idHash: Self.idHash(id), streamHash: FNV1a.hash(stream.utf8), keys: keys, value: Self.pack(location))
        if versions.count >= 1 << 20 { versions.removeAll(keepingCapacity: true) }
        versions[stream] = version
    }

    /// The secondary keys of a record, by the caller's function.
    func secondaryKeys(stream: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) -> [String] {
        options.secondaryKeys?.keys(stream, payload) ?? []
    }

    // MARK: Lookups

    /// Every location stored under `key` in runs of `kind` and in memory, in position order.
    func locations(kind: UInt32, key: UInt64) throws -> [UInt64] {
        var out: [UInt64] = []
        for run in runs where run.kind == kind { out += try run.values(for: key) }
        switch kind {
        case IndexKind.ids:
            if let v = recent.ids[key] { out.append(v) }
            out += recent.moreIDs[key] ?? []
        case IndexKind.streams: out += recent.streamLocations(key)
        default: out += recent.keys[key] ?? []
        }
        return out.sorted()
    }

    /// Reads the record an index entry points at; an entry that points at no record is damage of the index.
    func indexedRecord(_ value: UInt64, files: inout [UInt32: PlatformFile]) throws -> Record {
        try indexedFrame(value, files: &files).record
    }

    /// The frame an index entry points at (see `indexedRecord`); a record whose body fails its
    /// CRC under a sound frame header is damage of the log, reported as such.
    func indexedFrame(_ value: UInt64, files: inout [UInt32: PlatformFile]) throws -> ReadFrame {
        let location = Self.unpack(value)
        guard Int(location.segment) < segments.count, Int(location.offset) < segments[Int(location.segment)].end else {
            throw IndexRun.Damaged(why: "an index entry points past the log")
        }
        do {
            let file = try files[location.segment] ?? PlatformFile(path: segments[Int(location.segment)].path, mode: .readOnly)
            files[location.segment] = file
            return try readFrame(at: location, in: file)
        } catch let damaged as DamagedRecord {
            throw damaged.error
        } catch {
            throw IndexRun.Damaged(why: "an index entry points at no record (\(error))")
        }
    }

    func lookUpPosition(ofID id: String) throws -> UInt64? {
        var files: [UInt32: PlatformFile] = [:]
        for value in try locations(kind: IndexKind.ids, key: Self.idHash(id)) {
            let record = try indexedRecord(value, files: &files)
            if record.id == id { return record.position }
        }
        return nil
    }

    func lookUpVersion(of stream: String) throws -> UInt64 {
        if let v = versions[stream] { return v }
        guard options.indexes else { return 0 }
        var files: [UInt32: PlatformFile] = [:]
        var version: UInt64 = 0
        for value in try locations(kind: IndexKind.streams, key: FNV1a.hash(stream.utf8)).reversed() {
            let record = try indexedRecord(value, files: &files)
            if record.stream == stream { version = record.version; break }
        }
        if versions.count >= 1 << 20 { versions.removeAll(keepingCapacity: true) }
        versions[stream] = version
        return version
    }

    /// The records an index maps `key` to that `belongs` confirms, in position order.
    func indexedRecords(kind: UInt32, key: String, belongs: (Record) -> Bool) throws -> [Record] {
        var files: [UInt32: PlatformFile] = [:]
        var out: [Record] = []
        for value in try locations(kind: kind, key: FNV1a.hash(key.utf8)) {
            let frame = try indexedFrame(value, files: &files)
            guard belongs(frame.record) else { continue }
            // A record served to a reader (a user's history) has its chain link checked too.
            try checkChainLink(of: frame, at: Self.unpack(value), files: &files)
            out.append(frame.record)
        }
        return out
    }
}
