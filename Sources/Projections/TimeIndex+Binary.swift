import EventStore
import SubscriptionDomain
import Platform

// The time index file, in the log's projections folder next to the projection it goes with:
//
//   "LDGTIDX\n", format version (varint), projection fingerprint (string), head position (int64),
//   the log's chain hash there (32 bytes), first event (bool, int64), money exact (bool),
//   key count (varint), per key: kind (byte), number (zigzag varint), name (string), step count (varint);
//   then per key in that order: its step instants (int64 each, increasing), then its sums (int64 each);
//   the CRC32C of everything before in the last 4 bytes.
//
// Read whole or not at all: a file that ends early, fails its CRC, is of another version, or
// holds a key or an order no build makes is `ProjectionReader.Unreadable` (rebuilt, never served).

extension TimeIndex {
    static let magic = Array("LDGTIDX\n".utf8)

    /// Writes the index to `path` (a temporary file put in place atomically).
    func write(path: String) throws {
        var file = try ChecksummedReplacement(path: path)
        var w = ProjectionWriter()
        w.header(Self.magic, DerivedFileHeader(version: Self.formatVersion, fingerprint: fingerprint, position: position, hash: hash))
        w.bool(firstEvent != nil)
        w.int64(firstEvent?.nanoseconds ?? 0)
        w.bool(moneyExact)
        w.count(keys.count)
        for (k, key) in keys.enumerated() {
            w.byte(key.kind.rawValue)
            w.int(Int(key.number))
            w.string(key.name)
            w.count(starts[k + 1] - starts[k])
        }
        for k in keys.indices {
            for column in [times, sums] {
                for i in starts[k]..<starts[k + 1] {
                    w.int64(column[i])
                    if w.bytes.count >= 1 << 20 { try file.flush(&w) }
                }
            }
        }
        try file.commit(&w)
    }

    /// Reads the index at `path`: nil if there is none; `ProjectionReader.Unreadable` if it is not whole or not one a build makes.
    static func read(path: String) throws -> TimeIndex? {
        guard let source = try DurableFile.Source(path: path) else { return nil }
        var r = ProjectionReader(source: source)
        let header = try r.header(magic, what: "a time index file") { $0 == formatVersion ? nil : "another format version" }
        var index = TimeIndex(fingerprint: header.fingerprint, position: header.position, hash: header.hash)
        let hasFirst = try r.bool(), first = try r.int64()
        index.firstEvent = hasFirst ? Timestamp(nanoseconds: first) : nil
        index.moneyExact = try r.bool()
        let keyCount = try r.count()
        guard keyCount <= source.size else { throw r.unreadable("more keys than bytes") }
        var lengths: [Int] = []
        var total = 0
        for _ in 0..<keyCount {
            guard let kind = TimeKey.Kind(rawValue: try r.byte()) else { throw r.unreadable("a key of no known kind") }
            let key = TimeKey(kind: kind, number: Int64(try r.int()), name: try r.string())
            guard key.isValid, index.keys.last.map({ $0 < key }) ?? true else { throw r.unreadable("a key no build makes, or out of order") }
            let n = try r.count()
            guard n > 0, n <= source.size / 16, total + n <= source.size / 16 else { throw r.unreadable("more steps than bytes") }
            index.keys.append(key)
            lengths.append(n)
            total += n
        }
        index.times.reserveCapacity(total)
        index.sums.reserveCapacity(total)
        for n in lengths {
            var previous = Int64.min
            for i in 0..<n {
                let t = try r.int64()
                guard i == 0 || t > previous else { throw r.unreadable("step instants out of order") }
                previous = t
                index.times.append(t)
            }
            for _ in 0..<n { index.sums.append(try r.int64()) }
            index.starts.append(index.times.count)
        }
        try r.checkCRCTrailer(after: "the steps")
        return index
    }
}
