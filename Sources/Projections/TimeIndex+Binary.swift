import EventStore
import SubscriptionDomain

// The time index files, in the log's projections folder next to the projection they go with:
//
//   base (`.timeindex`): "LDGTIDX\n", format version (varint), projection fingerprint (string),
//   head position (int64), the log's chain hash there (32 bytes), then the steps.
//   overlay (`.timeindex-overlay`): "LDGTIDO\n", the same header for the head it brings the base
//   to, then the base's head position (int64) and chain hash (32 bytes), then the steps.
//
//   The steps: first event (bool, int64), money magnitude (int64), key count (varint), per key:
//   kind (byte), number (zigzag varint), name (string), step count (varint); then per key in that
//   order: its step instants (int64 each, increasing), then its sums (int64 each); the CRC32C of
//   everything before in the last 4 bytes.
//
// Read whole or not at all: a file that ends early, fails its CRC, is of another version, or
// holds a key or an order no build makes is `ProjectionReader.Unreadable` (rebuilt, never served).

extension TimeIndex {
    static let magic = Array("LDGTIDX\n".utf8)
    static let overlayMagic = Array("LDGTIDO\n".utf8)

    /// Writes the base to `path` (a temporary file put in place atomically); the overlay is not written.
    func write(path: String) throws {
        var file = try ChecksummedReplacement(path: path)
        var w = ProjectionWriter()
        w.header(Self.magic, DerivedFileHeader(version: Self.formatVersion, fingerprint: fingerprint, position: basePosition, hash: baseHash))
        try Self.write(base, firstEvent: firstEvent, magnitude: baseMagnitude, &w, &file)
        try file.commit(&w)
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

    /// Reads the base at `path`: nil if there is none; `ProjectionReader.Unreadable` if it is not whole or not one a build makes.
    static func read(path: String) throws -> TimeIndex? {
        guard let source = try DurableFile.Source(path: path) else { return nil }
        var r = ProjectionReader(source: source)
        let header = try r.header(magic, what: "a time index file") { $0 == formatVersion ? nil : "another format version" }
        let (steps, first, magnitude) = try readSteps(&r, size: source.size)
        return TimeIndex(fingerprint: header.fingerprint, position: header.position, hash: header.hash, firstEvent: first,
                         base: steps, baseMagnitude: magnitude)
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
