import Platform
/// One sorted run of index entries in a file of `DIR/indexes/` (derived data, immutable once
/// written; docs/log-format.md): 16-byte entries (a 64-bit key hash, a record's location) sorted by
/// key then location, in 4 KiB blocks that each carry a CRC32C, then the first key of every block
/// (the fences, read at open) and a Bloom filter (read when a handle makes many lookups).
///
/// Every check a reader makes throws `IndexRun.Damaged`, which makes the log drop its index files
/// and index the segments again: an index file is never trusted past a failed check.
final class IndexRun {
    static let magic = Array("LDGIRUN1".utf8)
    static let headerSize = 40
    static let blockSize = 4096
    static let entriesPerBlock = 255
    static let bloomBitsPerEntry = 10
    static let bloomProbes = 7

    /// A run file failed a check: it is not used.
    struct Damaged: Error { var why: String }

    /// One entry: a key hash (of an id, a stream, a secondary key) and a packed record location.
    struct Entry: Comparable {
        var key: UInt64
        var value: UInt64
        static func < (a: Entry, b: Entry) -> Bool { a.key != b.key ? a.key < b.key : a.value < b.value }
    }

    let path: String
    let kind: UInt32
    let nonce: UInt64
    let count: Int
    let file: PlatformFile
    private let fences: [UInt64]
    private var bloom: [UInt64]?
    private var lookups = 0

    static func blocks(for count: Int) -> Int { (count + entriesPerBlock - 1) / entriesPerBlock }
    static func bloomWords(for count: Int) -> Int { max(1, (count * bloomBitsPerEntry + 63) / 64) }
    static func fileSize(for count: Int) -> Int {
        headerSize + blocks(for: count) * (blockSize + 8) + 4 + bloomWords(for: count) * 8 + 4
    }

    /// Opens the run the manifest names, checking its size, header and fences.
    init(path: String, kind: UInt32, nonce: UInt64, count: Int) throws {
        self.path = path
        self.kind = kind
        self.nonce = nonce
        self.count = count
        do { file = try PlatformFile(path: path, mode: .readOnly) } catch { throw Damaged(why: "\(path): cannot open (\(error))") }
        let size = try file.size()
        guard size == Self.fileSize(for: count) else { throw Damaged(why: "\(path): \(size) bytes, expected \(Self.fileSize(for: count))") }
        let header = try file.readBytes(at: 0, count: Self.headerSize)
        guard header.count == Self.headerSize else { throw Damaged(why: "\(path): header cut short") }
        let ok = header.withUnsafeBytes { h in
            h.prefix(8).elementsEqual(Self.magic) && h.le32(8) == kind && h.le64(16) == nonce && h.le64(24) == UInt64(count)
                && h.le32(12) == UInt32(Self.bloomWords(for: count))
                && CRC32C.checksum(UnsafeRawBufferPointer(rebasing: h[0..<32])) == h.le32(32) && h.le32(36) == 0
        }
        guard ok else { throw Damaged(why: "\(path): header does not match the manifest") }
        let blocks = Self.blocks(for: count)
        let raw = try file.readBytes(at: Self.headerSize + blocks * Self.blockSize, count: blocks * 8 + 4)
        fences = try raw.withUnsafeBytes { b throws -> [UInt64] in
            guard b.count == blocks * 8 + 4, Self.crc(nonce, UnsafeRawBufferPointer(rebasing: b[0..<(blocks * 8)])) == b.le32(blocks * 8) else {
                throw Damaged(why: "\(path): fences fail their CRC")
            }
            return (0..<blocks).map { b.le64($0 * 8) }
        }
    }

    static func crc(_ nonce: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var n = nonce.littleEndian
        let seed = withUnsafeBytes(of: &n) { CRC32C.checksum($0) }
        return CRC32C.checksum(bytes, continuing: seed)
    }

    /// The entries of block `i`, checked.
    func block(_ i: Int) throws -> [Entry] {
        var bytes = [UInt8](repeating: 0, count: Self.blockSize)
        let got = try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: Self.headerSize + i * Self.blockSize) }
        return try bytes.withUnsafeBytes { b throws -> [Entry] in
            let n = Int(b.le32(4080))
            let expected = i == fences.count - 1 ? count - i * Self.entriesPerBlock : Self.entriesPerBlock
            guard got == Self.blockSize, n == expected,
                  Self.crc(nonce, UnsafeRawBufferPointer(rebasing: b[0..<4092])) == b.le32(4092) else {
                throw Damaged(why: "\(path): block \(i) fails its checks")
            }
            let entries = (0..<n).map { Entry(key: b.le64($0 * 16), value: b.le64($0 * 16 + 8)) }
            guard entries.first?.key == fences[i] else { throw Damaged(why: "\(path): block \(i) does not start at its fence") }
            return entries
        }
    }

    /// The values stored under `key`, in location order.
    func values(for key: UInt64) throws -> [UInt64] {
        lookups += 1
        if lookups == 32 { try loadBloom() }
        if let bloom, !Self.bloomContains(bloom, key) { return [] }
        // The first block that may hold `key`: the last whose fence is below it (a key's entries may start there).
        var low = 0, high = fences.count
        while low < high {
            let mid = (low + high) / 2
            if fences[mid] < key { low = mid + 1 } else { high = mid }
        }
        var i = max(0, low - 1)
        var out: [UInt64] = []
        while i < fences.count && fences[i] <= key {
            for e in try block(i) where e.key == key { out.append(e.value) }
            i += 1
        }
        return out
    }

    /// Every entry in order, block by block (for a merge).
    func forEach(_ visit: (Entry) throws -> Void) throws {
        for i in 0..<fences.count { for e in try block(i) { try visit(e) } }
    }

    private func loadBloom() throws {
        let words = Self.bloomWords(for: count)
        let at = Self.headerSize + fences.count * (Self.blockSize + 8) + 4
        let raw = try file.readBytes(at: at, count: words * 8 + 4)
        bloom = try raw.withUnsafeBytes { b throws -> [UInt64] in
            guard b.count == words * 8 + 4, Self.crc(nonce, UnsafeRawBufferPointer(rebasing: b[0..<(words * 8)])) == b.le32(words * 8) else {
                throw Damaged(why: "\(path): Bloom filter fails its CRC")
            }
            return (0..<words).map { b.le64($0 * 8) }
        }
    }

    /// The Bloom filter's bit for probe `probe` of `key`, in a filter of `words` words.
    @inline(__always) static func bloomBit(_ key: UInt64, probe: Int, words: Int) -> Int {
        var h = key &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 31
        let h2 = (h >> 33) | 1
        return Int((h &+ UInt64(probe) &* h2) % UInt64(words * 64))
    }

    static func bloomContains(_ bloom: [UInt64], _ key: UInt64) -> Bool {
        for probe in 0..<bloomProbes {
            let bit = bloomBit(key, probe: probe, words: bloom.count)
            if bloom[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }
}

/// Writes a run file from entries given in sorted order (to a new file; nothing is fsynced: a run
/// is derived data, checked by its CRCs whenever it is read).
struct IndexRunWriter {
    let path: String
    let kind: UInt32
    let nonce: UInt64
    let count: Int
    private let file: PlatformFile
    private var buffer: [UInt8] = []
    private var offset = IndexRun.headerSize
    private var block: [UInt8] = []
    private var inBlock = 0
    private var fences: [UInt64] = []
    private var bloom: [UInt64]
    private var written = 0
    private var last: IndexRun.Entry?

    init(path: String, kind: UInt32, nonce: UInt64, count: Int) throws {
        self.path = path
        self.kind = kind
        self.nonce = nonce
        self.count = count
        file = try PlatformFile(path: path, mode: .createReadWrite)
        try file.truncate(to: 0)
        bloom = [UInt64](repeating: 0, count: IndexRun.bloomWords(for: count))
        block.reserveCapacity(IndexRun.blockSize)
        buffer.reserveCapacity(1 << 20)
    }

    mutating func add(_ e: IndexRun.Entry) throws {
        precondition(last.map { $0 < e } ?? true && written < count, "index run entries out of order")
        last = e
        if inBlock == 0 { fences.append(e.key) }
        block.appendLE(e.key)
        block.appendLE(e.value)
        for probe in 0..<IndexRun.bloomProbes {
            let bit = IndexRun.bloomBit(e.key, probe: probe, words: bloom.count)
            bloom[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        inBlock += 1
        written += 1
        if inBlock == IndexRun.entriesPerBlock || written == count { try endBlock() }
    }

    private mutating func endBlock() throws {
        block.append(contentsOf: repeatElement(0, count: 4080 - block.count))
        block.appendLE(UInt32(inBlock))
        block.append(contentsOf: repeatElement(0, count: 8))
        let crc = block.withUnsafeBytes { IndexRun.crc(nonce, $0) }
        block.appendLE(crc)
        buffer.append(contentsOf: block)
        block.removeAll(keepingCapacity: true)
        inBlock = 0
        if buffer.count >= 1 << 20 { try flush() }
    }

    private mutating func flush() throws {
        try buffer.withUnsafeBytes { try file.writeAll($0, at: offset) }
        offset += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the fences, the Bloom filter and the header.
    mutating func finish() throws {
        precondition(written == count, "index run given fewer entries than announced")
        var tail: [UInt8] = []
        for f in fences { tail.appendLE(f) }
        tail.appendLE(tail.withUnsafeBytes { IndexRun.crc(nonce, $0) })
        buffer.append(contentsOf: tail)
        var words: [UInt8] = []
        words.reserveCapacity(bloom.count * 8 + 4)
        for w in bloom { words.appendLE(w) }
        words.appendLE(words.withUnsafeBytes { IndexRun.crc(nonce, $0) })
        buffer.append(contentsOf: words)
        try flush()
        var header = IndexRun.magic
        header.appendLE(kind)
        header.appendLE(UInt32(bloom.count))
        header.appendLE(nonce)
        header.appendLE(UInt64(count))
        header.appendLE(header.withUnsafeBytes { CRC32C.checksum($0) })
        header.appendLE(UInt32(0))
        try header.withUnsafeBytes { try file.writeAll($0, at: 0) }
    }
}
