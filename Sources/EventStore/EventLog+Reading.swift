import Platform
extension EventLog {
    /// Visits every committed record from `position` on, in order, checking each frame's CRC32C,
    /// the gapless sequence and the hash chain: each record read must commit to the one read
    /// before it, the first one visited to `after` when given (the head a derived file was
    /// checked over), and the log's head record to the head's hash. A forged record (its CRCs
    /// recomputed) breaks a link and is never visited. Damage stops the scan with an error
    /// naming segment, offset and position. With `through`, the scan stops after that position.
    public func forEach(from position: UInt64 = 1, through last: UInt64 = .max, after: SHA256.Digest? = nil, _ visit: (RecordView) throws -> Void) throws {
        let last = min(last, head.position)
        guard position <= last else { return }
        // The hash of the record before the next one read, when known: zero before position 1.
        var previous: SHA256.Digest? = nil
        // Start at the nearest sampled record (at most 1,023 records before `position` in a scanned segment).
        let seek = seekPoint(for: max(position, 1))
        let first = seek.segment
        let chunkSize = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var expected = UInt64(0)
        var done = false
        // A checked record not yet visited: its position, frame length and hash.
        var held: (position: UInt64, length: Int, hash: SHA256.Digest)?
        for i in first..<segments.count where !done {
            let segment = segments[i]
            if i > first && expected != segment.base {
                throw EventStoreError(.damaged, "segment starts at position \(segment.base) but the previous one ends at \(expected - 1) (missing or extra segment)", path: segment.path, offset: 0, position: expected)
            }
            expected = i == first ? seek.position : segment.base
            if expected == 1 { previous = .zero }
            guard segment.end > LogFormat.segmentHeaderSize else { continue }
            let file = try PlatformFile(path: segment.path, mode: .readOnly)
            var fileOffset = i == first ? seek.offset : LogFormat.segmentHeaderSize   // file offset of buffer[0]
            var filled = 0
            var parsed = 0                                   // buffer offset of the next frame
            while fileOffset + parsed < segment.end && !done {
                // Move the unparsed remainder to the front and read more.
                if parsed > 0 {
                    buffer.withUnsafeMutableBytes { b in
                        b.baseAddress!.copyMemory(from: b.baseAddress! + parsed, byteCount: filled - parsed)
                    }
                    fileOffset += parsed
                    filled -= parsed
                    parsed = 0
                }
                let want = min(buffer.count - filled, segment.end - fileOffset - filled)
                if want > 0 {
                    let got = try buffer.withUnsafeMutableBytes { (b) throws -> Int in
                        try file.read(into: UnsafeMutableRawBufferPointer(rebasing: b[filled..<(filled + want)]), at: fileOffset + filled)
                    }
                    guard got == want else {
                        throw EventStoreError(.damaged, "segment is shorter than its committed length", path: segment.path, offset: fileOffset + filled + got)
                    }
                    filled += want
                }
                let atEnd = fileOffset + filled == segment.end
                var grow = 0
                try buffer.withUnsafeBytes { raw in
                    let b = UnsafeRawBufferPointer(rebasing: raw[0..<filled])
                    // A record is visited only once the record after it was read and commits to it
                    // (or it is the head and hashes to the head's hash): the checked frame waits
                    // (`held`, at `parsed`) while the next one is read.
                    var pending: FrameBody?
                    if held != nil, case .record(let body, _) = LogFormat.frame(in: b, at: parsed, maxBodySize: Int(UInt32.max)) { pending = body }
                    var cursor = parsed + (held?.length ?? 0)
                    func release() throws {
                        guard let h = held, let body = pending else { return }
                        if h.position >= position { try visit(RecordView(body)) }
                        parsed = cursor
                        held = nil
                        pending = nil
                        if h.position >= last { done = true }
                    }
                    scanning: while cursor < filled {
                        switch LogFormat.frame(in: b, at: cursor, maxBodySize: Int(UInt32.max)) {
                        case .end:
                            break scanning
                        case .torn(let why):
                            if atEnd {
                                throw EventStoreError(.damaged, why, path: segment.path, offset: fileOffset + cursor, position: expected)
                            }
                            // Nothing consumed and no room left: make room for the frame (or, its length unknown yet, double).
                            if parsed == 0 {
                                grow = filled - cursor >= LogFormat.frameHeaderSize ? cursor + LogFormat.frameHeaderSize + Int(b.le32(cursor)) : 2 * buffer.count
                            }
                            return
                        case .damaged(let why):
                            throw EventStoreError(.damaged, why, path: segment.path, offset: fileOffset + cursor, position: expected)
                        case .record(let body, let length):
                            guard body.position == expected else {
                                throw EventStoreError(.damaged, "record holds position \(body.position) where \(expected) was expected", path: segment.path, offset: fileOffset + cursor, position: expected)
                            }
                            framesRead += 1
                            if expected == position, let after, !after.matches(body.previousHash) {
                                throw EventStoreError(.damaged, "hash chain broken: record does not commit to the head \(position - 1) the caller checked before (\(after))", path: segment.path, offset: fileOffset + cursor, position: expected)
                            }
                            if let p = previous, !p.matches(body.previousHash) {
                                throw EventStoreError(.damaged, "hash chain broken: record does not commit to its predecessor (altered or forged; run verify)", path: segment.path, offset: fileOffset + cursor, position: expected)
                            }
                            let hash = SHA256.hash(body.bytes)
                            previous = hash
                            if expected == head.position && head.hash != .zero && hash != head.hash {
                                throw EventStoreError(.damaged, "the head record does not hash to the head's hash (altered or forged; run verify)", path: segment.path, offset: fileOffset + cursor, position: expected)
                            }
                            // This record vouches for the one held.
                            try release()
                            if done { return }
                            held = (expected, length, hash)
                            pending = body
                            expected += 1
                            cursor += length
                        }
                    }
                    // The segment's last record: vouched for by the head's hash, or by the next segment's first record.
                    if atEnd, cursor == filled, let h = held {
                        if h.position < head.position, i + 1 < segments.count {
                            let next = segments[i + 1]
                            guard next.base == h.position + 1 else {
                                throw EventStoreError(.damaged, "segment starts at position \(next.base) but the previous one ends at \(h.position) (missing or extra segment)", path: next.path, offset: 0, position: h.position + 1)
                            }
                            try checkFirstLink(of: i + 1, commitsTo: h.hash, position: h.position)
                        }
                        try release()
                    }
                }
                if grow > buffer.count { buffer.append(contentsOf: repeatElement(0, count: grow - buffer.count)) }
            }
        }
    }

    /// Checks that the first record of segment `i` commits to `hash` (the previous segment's last record).
    func checkFirstLink(of i: Int, commitsTo hash: SHA256.Digest, position: UInt64) throws {
        let file = try PlatformFile(path: segments[i].path, mode: .readOnly)
        let start = try file.readBytes(at: LogFormat.segmentHeaderSize, count: LogFormat.frameHeaderSize + 64)
        let linked = start.count == LogFormat.frameHeaderSize + 64 && start.withUnsafeBytes { b in
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[0..<8])) == b.le32(8)
                && hash.matches(UnsafeRawBufferPointer(rebasing: b[(LogFormat.frameHeaderSize + 32)..<(LogFormat.frameHeaderSize + 64)]))
        }
        guard linked else {
            throw EventStoreError(.damaged, "hash chain broken: the next segment's first record does not commit to this segment's last (altered or forged; run verify)", path: segments[i - 1].path, position: position)
        }
    }

    /// The hash-chain value at `position`: the SHA-256 of that record's body, which commits to every
    /// record before it (zero for position 0); nil if the log does not reach `position`.
    public func chainHash(at position: UInt64) throws -> SHA256.Digest? {
        if position == 0 { return .zero }
        guard position <= head.position else { return nil }
        if position == head.position && head.hash != .zero { return head.hash }
        var hash: SHA256.Digest?
        try forEach(from: position, through: position) { hash = SHA256.hash($0.body) }
        return hash
    }

    /// Copies of every committed record from `position` on.
    public func records(from position: UInt64 = 1) throws -> [Record] {
        var out: [Record] = []
        try forEach(from: position) { out.append($0.copy()) }
        return out
    }

    /// One stream's records in version order, read through the stream index.
    public func records(inStream stream: String) throws -> [Record] {
        guard options.indexes else { throw EventStoreError(.invalidArgument, "this handle was opened without indexes", path: directory) }
        return try repairingIndexes { try indexedRecords(kind: IndexKind.streams, key: stream) { $0.stream == stream } }
    }

    /// The records whose secondary keys (`Options.secondaryKeys`) include `key`, in position order.
    public func records(withKey key: String) throws -> [Record] {
        guard options.indexes else { throw EventStoreError(.invalidArgument, "this handle was opened without indexes", path: directory) }
        guard let function = options.secondaryKeys else { return [] }
        return try repairingIndexes {
            try indexedRecords(kind: IndexKind.keys, key: key) { record in
                Array(record.stream.utf8).withUnsafeBytes { s in record.payload.withUnsafeBytes { function.keys(s, $0).contains(key) } }
            }
        }
    }

    /// Checks that the record read at `location` is the one its successor commits to (or, for
    /// the head, the head's hash): a record forged with recomputed CRCs fails here.
    func checkChainLink(of frame: ReadFrame, at location: Location, files: inout [UInt32: PlatformFile]) throws {
        let position = frame.record.position
        let segmentPath = segments[Int(location.segment)].path
        func broken() -> EventStoreError {
            EventStoreError(.damaged, "hash chain broken: the record's successor does not commit to it (altered or forged; run verify)", path: segmentPath, offset: Int(location.offset), position: position)
        }
        if position == head.position {
            if head.hash != .zero && frame.hash != head.hash { throw broken() }
            return
        }
        guard position < head.position else { return }
        // The successor starts right after this frame, or at the start of the next segment.
        var next = Location(segment: location.segment, offset: location.offset + UInt32(frame.frameLength))
        if Int(next.offset) >= segments[Int(next.segment)].end {
            guard Int(next.segment) + 1 < segments.count else { return }
            next = Location(segment: next.segment + 1, offset: UInt32(LogFormat.segmentHeaderSize))
        }
        let file = try files[next.segment] ?? PlatformFile(path: segments[Int(next.segment)].path, mode: .readOnly)
        files[next.segment] = file
        let start = try file.readBytes(at: Int(next.offset), count: LogFormat.frameHeaderSize + 64)
        guard start.count == LogFormat.frameHeaderSize + 64 else { throw broken() }
        let linked = start.withUnsafeBytes { b -> Bool in
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[0..<8])) == b.le32(8)
                && b.le64(LogFormat.frameHeaderSize) == position + 1
                && frame.hash.matches(UnsafeRawBufferPointer(rebasing: b[(LogFormat.frameHeaderSize + 32)..<(LogFormat.frameHeaderSize + 64)]))
        }
        guard linked else { throw broken() }
    }

    /// Reads and checks the one frame at `location`.
    func read(at location: Location, in openFile: PlatformFile? = nil) throws -> Record {
        try readFrame(at: location, in: openFile).record
    }

    /// A record read at a location, with what checking its chain link needs.
    struct ReadFrame {
        var record: Record
        var hash: SHA256.Digest
        var frameLength: Int
    }

    /// A frame whose header checks but whose body does not: damage of the log, not of an index
    /// entry pointing at it.
    struct DamagedRecord: Error {
        var error: EventStoreError
    }

    /// Reads and checks the one frame at `location`; a body that fails its CRC under a frame
    /// header that passes its own is `DamagedRecord`.
    func readFrame(at location: Location, in openFile: PlatformFile? = nil) throws -> ReadFrame {
        let segment = segments[Int(location.segment)]
        let file = try openFile ?? PlatformFile(path: segment.path, mode: .readOnly)
        let offset = Int(location.offset)
        let header = try file.readBytes(at: offset, count: LogFormat.frameHeaderSize)
        guard header.count == LogFormat.frameHeaderSize else {
            throw EventStoreError(.damaged, "frame header missing", path: segment.path, offset: offset)
        }
        let length = Int(header.withUnsafeBytes { $0.le32(0) })
        let headerChecks = header.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<8])) == $0.le32(8) }
        let bytes = try file.readBytes(at: offset, count: LogFormat.frameHeaderSize + min(length, 1 << 30))
        return try bytes.withUnsafeBytes { (b) throws -> ReadFrame in
            switch LogFormat.frame(in: b, at: 0, maxBodySize: Int(UInt32.max)) {
            case .record(let body, let n):
                return ReadFrame(record: RecordView(body).copy(), hash: SHA256.hash(body.bytes), frameLength: n)
            case .damaged(let why) where headerChecks:
                throw DamagedRecord(error: EventStoreError(.damaged, why, path: segment.path, offset: offset, position: nil))
            case .torn(let why), .damaged(let why):
                throw EventStoreError(.damaged, why, path: segment.path, offset: offset)
            case .end:
                throw EventStoreError(.damaged, "frame missing", path: segment.path, offset: offset)
            }
        }
    }
}
