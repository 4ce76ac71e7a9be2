extension EventLog {
    /// Visits every committed record from `position` on, in order, checking each frame's CRC32C
    /// and the gapless sequence. Damage stops the scan with an error naming segment, offset and position.
    /// With `through`, the scan stops after that position.
    public func forEach(from position: UInt64 = 1, through last: UInt64 = .max, _ visit: (RecordView) throws -> Void) throws {
        let last = min(last, head.position)
        guard position <= last else { return }
        // Start at the nearest sampled record (at most 1,023 records before `position` in a scanned segment).
        let seek = seekPoint(for: max(position, 1))
        let first = seek.segment
        let chunkSize = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var expected = UInt64(0)
        var done = false
        for i in first..<segments.count where !done {
            let segment = segments[i]
            if i > first && expected != segment.base {
                throw EventStoreError(.damaged, "segment starts at position \(segment.base) but the previous one ends at \(expected - 1) (missing or extra segment)", path: segment.path, offset: 0, position: expected)
            }
            expected = i == first ? seek.position : segment.base
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
                    while parsed < filled {
                        switch LogFormat.frame(in: b, at: parsed, maxBodySize: Int(UInt32.max)) {
                        case .end:
                            return
                        case .torn(let why):
                            if atEnd {
                                throw EventStoreError(.damaged, why, path: segment.path, offset: fileOffset + parsed, position: expected)
                            }
                            if parsed == 0 && filled >= LogFormat.frameHeaderSize {
                                grow = LogFormat.frameHeaderSize + Int(b.le32(0))
                            }
                            return
                        case .damaged(let why):
                            throw EventStoreError(.damaged, why, path: segment.path, offset: fileOffset + parsed, position: expected)
                        case .record(let body, let length):
                            guard body.position == expected else {
                                throw EventStoreError(.damaged, "record holds position \(body.position) where \(expected) was expected", path: segment.path, offset: fileOffset + parsed, position: expected)
                            }
                            framesRead += 1
                            if expected >= position { try visit(RecordView(body)) }
                            expected += 1
                            parsed += length
                            if expected > last {
                                done = true
                                return
                            }
                        }
                    }
                }
                if grow > buffer.count { buffer.append(contentsOf: repeatElement(0, count: grow - buffer.count)) }
            }
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

    /// Reads and checks the one frame at `location`.
    func read(at location: Location, in openFile: PlatformFile? = nil) throws -> Record {
        let segment = segments[Int(location.segment)]
        let file = try openFile ?? PlatformFile(path: segment.path, mode: .readOnly)
        let offset = Int(location.offset)
        let header = try file.readBytes(at: offset, count: LogFormat.frameHeaderSize)
        guard header.count == LogFormat.frameHeaderSize else {
            throw EventStoreError(.damaged, "frame header missing", path: segment.path, offset: offset)
        }
        let length = Int(header.withUnsafeBytes { $0.le32(0) })
        let bytes = try file.readBytes(at: offset, count: LogFormat.frameHeaderSize + min(length, 1 << 30))
        return try bytes.withUnsafeBytes { (b) throws -> Record in
            switch LogFormat.frame(in: b, at: 0, maxBodySize: Int(UInt32.max)) {
            case .record(let body, _):
                return RecordView(body).copy()
            case .torn(let why), .damaged(let why):
                throw EventStoreError(.damaged, why, path: segment.path, offset: offset)
            case .end:
                throw EventStoreError(.damaged, "frame missing", path: segment.path, offset: offset)
            }
        }
    }
}
