import Projections
import EventStore
import SubscriptionDomain
import Platform

// The time index files, in the log's projections folder next to the projection they go with.
//
//   base (`.timeindex`), read in blocks (PagedSteps.swift): "LDGTIDX\n", the length L of the
//   table (uint32), the table: format version (varint), projection fingerprint (string), the
//   profile folded with (its JSON, string), head
//   position (int64), the log's chain hash there (32 bytes), first event (bool, int64), money
//   magnitude (int64), steps per block B (varint; the tool writes 256), key count (varint), per
//   key: kind (byte), number (zigzag varint), name (string), step count (varint); then per key
//   the first instant of each of its blocks (int64 each); the CRC32C of the 12 + L bytes so far
//   (uint32). Then per key in that order its blocks of B steps (the last may hold fewer), each
//   step its instant and its sum (int64 each), each block followed by the CRC32C of its bytes
//   (uint32). The file ends there.
//
//   overlay (`.timeindex-overlay`), read whole: "LDGTIDO\n", format version (varint), fingerprint
//   (string), the head it brings the base to (int64, 32 bytes), the base's head position (int64)
//   and chain hash (32 bytes), first event (bool, int64), money magnitude (int64), the key table
//   as above, then per key its instants (int64 each, increasing), then its sums (int64 each); the
//   CRC32C of everything before in the last 4 bytes.
//
// A base whose table fails its CRC, is of another version, holds a key or an order no build
// makes, or whose size is not what its table gives, and a block that fails its CRC or its order
// when a lookup reads it, are `ProjectionReader.Unreadable` (rebuilt, never served); so is an
// overlay that is not whole.

extension TimeIndex {
    static let magic = Array("LDGTIDX\n".utf8)
    static let overlayMagic = Array("LDGTIDO\n".utf8)

    /// Writes the base to `path` (a temporary file put in place atomically), in blocks of
    /// `blockSteps` steps; the overlay is not written. The blocks' place in the file follows from
    /// the table, so a file of `splittingFrom` bytes of blocks or more is written in two halves
    /// of its keys on two cores (each half encoded and written at its own offsets): copying the
    /// blocks into the page cache can be most of a write's time. The same bytes either way.
    func write(path: String, blockSteps: Int = PagedSteps.defaultBlockSteps, splittingFrom: Int = 16 << 20) throws {
        precondition(blockSteps > 0 && blockSteps <= PagedSteps.maximumBlockSteps)
        let steps = try memoryBase()
        var table = ProjectionWriter()
        table.count(Self.formatVersion)
        table.string(fingerprint)
        table.string(profileJSON)
        table.int64(Int64(bitPattern: basePosition))
        table.raw(baseHash.bytes)
        table.bool(firstEvent != nil)
        table.int64(firstEvent?.nanoseconds ?? 0)
        table.int64(baseMagnitude)
        table.count(blockSteps)
        table.count(steps.keys.count)
        for (k, key) in steps.keys.enumerated() {
            table.byte(key.kind.rawValue)
            table.int(Int(key.number))
            table.string(key.name)
            table.count(steps.starts[k + 1] - steps.starts[k])
        }
        for k in steps.keys.indices {
            for i in stride(from: steps.starts[k], to: steps.starts[k + 1], by: blockSteps) { table.int64(steps.times[i]) }
        }
        var w = ProjectionWriter()
        w.raw(Self.magic)
        w.uint32(UInt32(table.bytes.count))
        w.raw(table.bytes)
        w.uint32(CRC32C.checksum(w.bytes))
        let file = try DurableFile.Replacement(path: path)
        // Where each key's blocks start: 16 bytes a step and 4 a block.
        var offsets = [w.bytes.count]
        offsets.reserveCapacity(steps.keys.count + 1)
        for k in steps.keys.indices {
            let n = steps.starts[k + 1] - steps.starts[k]
            offsets.append(offsets[k] + 16 * n + 4 * ((n + blockSteps - 1) / blockSteps))
        }
        try w.drain { try file.write($0, at: 0) }
        let keys = steps.keys.indices
        if offsets[keys.count] - offsets[0] < splittingFrom {
            try Self.writeBlocks(steps, keys: keys, at: offsets[0], blockSteps: blockSteps, into: file)
        } else {
            // The first key of the second half: the one holding the middle byte.
            let middle = (offsets[0] + offsets[keys.count]) / 2
            var split = 0
            while split < keys.count, offsets[split + 1] <= middle { split += 1 }
            _ = try Parallel.both(
                { () throws -> Void in try Self.writeBlocks(steps, keys: 0..<split, at: offsets[0], blockSteps: blockSteps, into: file) },
                { () throws -> Void in try Self.writeBlocks(steps, keys: split..<keys.count, at: offsets[split], blockSteps: blockSteps, into: file) })
        }
        try file.commit()
    }

    /// Writes the blocks of `keys` from `offset` on: per block, its (time, sum) pairs as
    /// little-endian words, then the CRC32C of those bytes.
    private static func writeBlocks(_ steps: TimeSteps, keys: Range<Int>, at offset: Int, blockSteps: Int,
                                    into file: DurableFile.Replacement) throws {
        var w = ProjectionWriter(capacity: 1 << 20 + 16 * blockSteps + 4)
        var at = offset
        // A block's pairs gathered, then appended at once (not 16 bytes a step).
        var pairs: [Int64] = []
        pairs.reserveCapacity(2 * blockSteps)
        for k in keys {
            for first in stride(from: steps.starts[k], to: steps.starts[k + 1], by: blockSteps) {
                let blockStart = w.bytes.count
                pairs.removeAll(keepingCapacity: true)
                for i in first..<min(first + blockSteps, steps.starts[k + 1]) {
                    pairs.append(steps.times[i].littleEndian)
                    pairs.append(steps.sums[i].littleEndian)
                }
                pairs.withUnsafeBytes { w.raw($0) }
                w.uint32(w.bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[blockStart...])) })
                if w.bytes.count >= 1 << 20 {
                    let n = w.bytes.count
                    try w.drain { try file.write($0, at: at) }
                    at += n
                }
            }
        }
        try w.drain { try file.write($0, at: at) }
    }

    /// Writes the overlay to `path`, naming the head it brings the base to and the base's head.
    func writeOverlay(path: String) throws {
        var file = try ChecksummedReplacement(path: path)
        var w = ProjectionWriter()
        w.header(Self.overlayMagic, DerivedFileHeader(version: Self.formatVersion, fingerprint: fingerprint, position: position, hash: hash))
        w.int64(Int64(bitPattern: basePosition))
        w.raw(baseHash.bytes)
        try Self.write(overlay, firstEvent: firstEvent, magnitude: overlayMagnitude, &w, &file)
        try file.commit(&w)
    }

    private static func write(_ steps: TimeSteps, firstEvent: Timestamp?, magnitude: Int64,
                              _ w: inout ProjectionWriter, _ file: inout ChecksummedReplacement) throws {
        w.bool(firstEvent != nil)
        w.int64(firstEvent?.nanoseconds ?? 0)
        w.int64(magnitude)
        w.count(steps.keys.count)
        for (k, key) in steps.keys.enumerated() {
            w.byte(key.kind.rawValue)
            w.int(Int(key.number))
            w.string(key.name)
            w.count(steps.starts[k + 1] - steps.starts[k])
        }
        for k in steps.keys.indices {
            for column in [steps.times, steps.sums] {
                for i in steps.starts[k]..<steps.starts[k + 1] {
                    w.int64(column[i])
                    if w.bytes.count >= 1 << 20 { try file.flush(&w) }
                }
            }
        }
    }

    /// Opens the base at `path`: nil if there is none; `ProjectionReader.Unreadable` if its table
    /// is not whole or not one a build makes, or the file is not the size the table gives. Its
    /// steps are read in blocks by the lookups that need them (`PagedSteps`).
    static func read(path: String) throws -> TimeIndex? {
        guard PlatformDirectory.exists(path) else { return nil }
        let file = try RandomAccessFile(path: path, create: false)
        // A FIFO, device or folder in its place is not read (it is built again, and renamed over it).
        guard try file.isRegular() else { throw ProjectionReader.Unreadable(offset: 0, reason: "not a regular file") }
        let size = try file.size()
        let start = try file.read(at: 0, count: 12)
        var p = ByteParser(start, fileOffset: 0)
        guard start.count == 12, Array(try p.raw(8)) == magic else { throw p.unreadable("not a time index file") }
        let length = Int(start[8]) | Int(start[9]) << 8 | Int(start[10]) << 16 | Int(start[11]) << 24
        guard length + 16 <= size else { throw p.unreadable("a table longer than the file") }
        let tableBytes = try file.read(at: 12, count: length + 4)
        guard tableBytes.count == length + 4 else { throw p.unreadable("ends early") }
        let crc = tableBytes[length..<(length + 4)].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(8 * $1.offset) }
        guard CRC32C.checksum(start + tableBytes.prefix(length)) == crc else { throw p.unreadable("the table's CRC does not match") }
        var r = ByteParser(Array(tableBytes.prefix(length)), fileOffset: 12)
        guard try r.count() == formatVersion else { throw r.unreadable("another format version") }
        let fingerprint = try r.string()
        let profileJSON = try r.string()
        let position = UInt64(bitPattern: try r.int64())
        let hash = EventStore.SHA256.Digest(bytes: Array(try r.raw(32)))
        let hasFirst = try r.bool(), first = try r.int64()
        let magnitude = try r.int64()
        guard magnitude >= 0 else { throw r.unreadable("a negative money magnitude") }
        let blockSteps = try r.count()
        guard blockSteps > 0, blockSteps <= PagedSteps.maximumBlockSteps else { throw r.unreadable("blocks of \(blockSteps) steps") }
        let keyCount = try r.count()
        guard keyCount <= length else { throw r.unreadable("more keys than bytes") }
        var keys: [TimeKey] = [], counts: [Int] = []
        var body = 0
        for _ in 0..<keyCount {
            guard let kind = TimeKey.Kind(rawValue: try r.byte()) else { throw r.unreadable("a key of no known kind") }
            let key = TimeKey(kind: kind, number: Int64(try r.int()), name: try r.string())
            guard key.isValid, keys.last.map({ $0 < key }) ?? true else { throw r.unreadable("a key no build makes, or out of order") }
            let n = try r.count()
            guard n > 0, n <= size / 16 else { throw r.unreadable("more steps than bytes") }
            body += PagedSteps.bytes(steps: n, blockSteps)
            guard body <= size else { throw r.unreadable("more steps than bytes") }
            keys.append(key)
            counts.append(n)
        }
        var fences: [Int64] = []
        for n in counts {
            var previous = Int64.min
            for b in 0..<PagedSteps.blockCount(n, blockSteps) {
                let t = try r.int64()
                guard b == 0 || t > previous else { throw r.unreadable("block fences out of order") }
                previous = t
                fences.append(t)
            }
        }
        guard r.isAtEnd else { throw r.unreadable("bytes after the table") }
        guard size == 16 + length + body else { throw r.unreadable("a file of \(size) bytes where its table gives \(16 + length + body)") }
        let paged = PagedSteps(path: path, file: file, blockSteps: blockSteps, keys: keys, counts: counts, fences: fences, firstBlock: 16 + length)
        var index = TimeIndex(fingerprint: fingerprint, position: position, hash: hash, firstEvent: hasFirst ? Timestamp(nanoseconds: first) : nil,
                              base: .paged(paged), baseMagnitude: magnitude)
        index.profileJSON = profileJSON
        return index
    }

    /// The overlay at `path` as stored: what it names and its steps.
    struct StoredOverlay {
        var header: DerivedFileHeader
        var basePosition: UInt64
        var baseHash: EventStore.SHA256.Digest
        var steps: TimeSteps
        var firstEvent: Timestamp?
        var magnitude: Int64
    }

    /// Reads the overlay at `path`: nil if there is none; `ProjectionReader.Unreadable` if it is not whole or not one an update makes.
    static func readOverlay(path: String) throws -> StoredOverlay? {
        guard let source = try DurableFile.Source(path: path) else { return nil }
        var r = ProjectionReader(source: source)
        let header = try r.header(overlayMagic, what: "a time index overlay file") { $0 == formatVersion ? nil : "another format version" }
        let basePosition = UInt64(bitPattern: try r.int64())
        let baseHash = EventStore.SHA256.Digest(bytes: try r.raw(32))
        guard basePosition <= header.position else { throw r.unreadable("a base after its own head") }
        let (steps, first, magnitude) = try readSteps(&r, size: source.size)
        return StoredOverlay(header: header, basePosition: basePosition, baseHash: baseHash, steps: steps, firstEvent: first, magnitude: magnitude)
    }

    private static func readSteps(_ r: inout ProjectionReader, size: Int) throws -> (TimeSteps, Timestamp?, Int64) {
        let hasFirst = try r.bool(), first = try r.int64()
        let magnitude = try r.int64()
        guard magnitude >= 0 else { throw r.unreadable("a negative money magnitude") }
        var steps = TimeSteps()
        let keyCount = try r.count()
        guard keyCount <= size else { throw r.unreadable("more keys than bytes") }
        var lengths: [Int] = []
        var total = 0
        for _ in 0..<keyCount {
            guard let kind = TimeKey.Kind(rawValue: try r.byte()) else { throw r.unreadable("a key of no known kind") }
            let key = TimeKey(kind: kind, number: Int64(try r.int()), name: try r.string())
            guard key.isValid, steps.keys.last.map({ $0 < key }) ?? true else { throw r.unreadable("a key no build makes, or out of order") }
            let n = try r.count()
            guard n > 0, n <= size / 16, total + n <= size / 16 else { throw r.unreadable("more steps than bytes") }
            steps.keys.append(key)
            lengths.append(n)
            total += n
        }
        steps.times.reserveCapacity(total)
        steps.sums.reserveCapacity(total)
        for n in lengths {
            var previous = Int64.min
            for i in 0..<n {
                let t = try r.int64()
                guard i == 0 || t > previous else { throw r.unreadable("step instants out of order") }
                previous = t
                steps.times.append(t)
            }
            for _ in 0..<n { steps.sums.append(try r.int64()) }
            steps.starts.append(steps.times.count)
        }
        try r.checkCRCTrailer(after: "the steps")
        return (steps, hasFirst ? Timestamp(nanoseconds: first) : nil, magnitude)
    }
}
