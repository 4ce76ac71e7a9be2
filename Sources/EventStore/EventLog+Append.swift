import Platform
extension EventLog {
    /// Appends a batch atomically and durably: after a crash either all of it is in the log or
    /// none of it. Returns once the bytes are fsynced. Ids already in the log are skipped and
    /// reported as duplicates. A wrong expected version appends nothing.
    @discardableResult
    public func append(_ batch: [ProposedRecord], expecting: [String: ExpectedVersion] = [:]) throws -> AppendReceipt {
        guard access == .write else { throw EventStoreError(.invalidArgument, "this handle is read-only", path: directory) }
        for record in batch {
            let size = LogFormat.bodyFixedSize + record.id.utf8.count + record.stream.utf8.count + record.payload.count
            if size > options.maxRecordSize {
                throw EventStoreError(.recordTooLarge, "record '\(record.id)' is \(size) bytes, over the limit of \(options.maxRecordSize)")
            }
            if record.id.isEmpty || record.id.utf8.count > Int(UInt16.max) || record.stream.isEmpty || record.stream.utf8.count > Int(UInt16.max) {
                throw EventStoreError(.invalidArgument, "record id and stream must be 1 to 65535 bytes (id '\(record.id.prefix(40))')")
            }
        }
        return try withWriterLock { () throws -> AppendReceipt in
            try catchUpRepairingIndexes()
            try checkPartition(batch)
            let receipt = try repairingIndexes { try appendLocked(batch, expecting: expecting) }
            if recent.count >= options.indexFlushThreshold { try? saveIndexesLocked(reloadIfStale: true) }
            return receipt
        }
    }

    private func appendLocked(_ batch: [ProposedRecord], expecting: [String: ExpectedVersion]) throws -> AppendReceipt {
        for (stream, expected) in expecting.sorted(by: { $0.key < $1.key }) {
            let actual = try lookUpVersion(of: stream)
            let ok: Bool
            switch expected {
            case .any: ok = true
            case .noStream: ok = actual == 0
            case .exactly(let v): ok = actual == v
            }
            if !ok {
                throw EventStoreError(.wrongExpectedVersion, "stream '\(stream)': expected \(expected), actual version \(actual)")
            }
        }
        var receipt = AppendReceipt()
        var batchIDs: [String: UInt64] = [:]
        batchIDs.reserveCapacity(batch.count)
        var toWrite: [(Int, ProposedRecord)] = []
        toWrite.reserveCapacity(batch.count)
        for (index, record) in batch.enumerated() {
            if let existing = try batchIDs[record.id] ?? lookUpPosition(ofID: record.id) {
                receipt.duplicates.append(.init(index: index, id: record.id, existingPosition: existing))
                continue
            }
            batchIDs[record.id] = head.position + UInt64(toWrite.count) + 1
            toWrite.append((index, record))
        }
        guard !toWrite.isEmpty else { return receipt }

        var buffer: [UInt8] = []
        buffer.reserveCapacity(toWrite.reduce(0) { $0 + LogFormat.frameHeaderSize + LogFormat.bodyFixedSize + $1.1.id.utf8.count + $1.1.stream.utf8.count + $1.1.payload.count })
        var position = head.position
        var hash = head.hash
        var versions: [String: UInt64] = [:]
        versions.reserveCapacity(toWrite.count)
        var offsets: [Int] = []
        offsets.reserveCapacity(toWrite.count)
        receipt.appended.reserveCapacity(toWrite.count)
        let now = options.clock()
        receipt.recorded = now
        for (k, (index, record)) in toWrite.enumerated() {
            position += 1
            let version = try (versions[record.stream] ?? lookUpVersion(of: record.stream)) + 1
            versions[record.stream] = version
            offsets.append(buffer.count)
            hash = LogFormat.appendFrame(
                to: &buffer, position: position, version: version, recorded: now,
                flags: k == toWrite.count - 1 ? LogFormat.commitFlag : 0, previousHash: hash,
                id: record.id, stream: record.stream, payload: record.payload)
            receipt.appended.append(.init(index: index, id: record.id, position: position, version: version))
        }

        if segments.isEmpty || (segments[segments.count - 1].end > LogFormat.segmentHeaderSize
            && segments[segments.count - 1].end + buffer.count > options.segmentSize) {
            try startSegment(base: head.position + 1)
        }
        let s = segments.count - 1
        let start = segments[s].end
        let file = try PlatformFile(path: segments[s].path, mode: .readWrite)
        do {
            try buffer.withUnsafeBytes { (b) throws in
                if let limit = failWritesAfterBytes {
                    try file.writeAll(UnsafeRawBufferPointer(rebasing: b.prefix(limit)), at: start)
                    throw EventStoreError(.io, "injected write failure", path: file.path, offset: start + limit)
                }
                try file.writeAll(b, at: start)
            }
            try file.sync()
        } catch {
            try? file.truncate(to: start)
            try? file.sync()
            throw error
        }
        for (k, (_, record)) in toWrite.enumerated() {
            let location = Location(segment: UInt32(s), offset: UInt32(start + offsets[k]))
            let appended = receipt.appended[k]
            let keys = record.stream.utf8.withContiguousStorageIfAvailable { s in
                record.payload.withUnsafeBytes { secondaryKeys(stream: UnsafeRawBufferPointer(s), payload: $0) }
            } ?? Array(record.stream.utf8).withUnsafeBytes { s in record.payload.withUnsafeBytes { secondaryKeys(stream: s, payload: $0) } }
            indexRecord(id: record.id, stream: record.stream, version: appended.version, keys: keys, at: location)
            indexPosition(appended.position, at: location, recorded: now)
            headLocation = Self.pack(location)
        }
        segments[s].end = start + buffer.count
        head = LogHead(position: position, hash: hash)
        // The batch is durable; now the checkpoint may say so. If this write fails the checkpoint
        // stays behind the head, which is safe (it only marks less as provably committed) and is
        // brought up to the head when a writer next opens the log.
        if (try? headWriter?.write(head)) != nil { committedHead = head }
        return receipt
    }

    private func startSegment(base: UInt64) throws {
        let path = segmentDirectory + "/" + LogFormat.segmentName(base: base)
        let file = try PlatformFile(path: path, mode: .createReadWrite)
        try file.truncate(to: 0)
        try LogFormat.segmentHeader(base: base).withUnsafeBytes { (b) throws in try file.writeAll(b, at: 0) }
        try file.sync()
        try PlatformDirectory.sync(segmentDirectory)
        segments.append(Segment(base: base, path: path, end: LogFormat.segmentHeaderSize))
    }
}
