import EventStore
import Transparency
import Platform

/// `DIR/proofs/checkpoints/<size>`: the per-user completeness index as of a checkpoint's size.
/// The entries (`UserIndexEntry`, 72 bytes each) sorted by key, then the index tree's stored
/// hashes (32 bytes each, `StoredHashLayout` order), then a 96-byte trailer: magic, the size
/// (log position) it is of, that position's chain hash, the entry count, the index root, the
/// entries' CRC32C and the trailer's own CRC32C. Written whole under a temporary name and renamed.
///
/// A derived file: opening checks its length and trailer, `ProofStore` checks the chain hash
/// against the log and the root against the stored hashes before use. A lookup is a binary
/// search of 72-byte reads and an inclusion path of 32-byte reads: O(log users).
final class UserIndexFile {
    /// What the file is of.
    struct Trailer: Equatable {
        var size: UInt64
        var chainHash: SHA256.Digest
        var entries: UInt64
        var root: SHA256.Digest
        var entriesCRC: UInt32

        static let magic = Array("LDGUIX01".utf8)
        static let byteCount = 96

        var bytes: [UInt8] {
            var out = Self.magic
            LittleEndian.append(size, to: &out)
            chainHash.append(to: &out)
            LittleEndian.append(entries, to: &out)
            root.append(to: &out)
            LittleEndian.append(entriesCRC, to: &out)
            LittleEndian.append(CRC32C.checksum(out), to: &out)
            out += [UInt8](repeating: 0, count: Self.byteCount - out.count)
            return out
        }

        static func read(_ b: [UInt8]) -> Trailer? {
            guard b.count == byteCount, Array(b[0..<8]) == magic, CRC32C.checksum(Array(b[0..<92])) == LittleEndian.uint32(b, at: 92) else { return nil }
            return Trailer(size: LittleEndian.uint64(b, at: 8), chainHash: SHA256.Digest(bytes: Array(b[16..<48])),
                           entries: LittleEndian.uint64(b, at: 48), root: SHA256.Digest(bytes: Array(b[56..<88])),
                           entriesCRC: LittleEndian.uint32(b, at: 88))
        }
    }

    /// The index tree's stored hashes, read from the file.
    struct TreeHashes: StoredHashes {
        let file: RandomAccessFile
        let start: Int
        let count: UInt64

        func hash(level: Int, index: UInt64) throws -> SHA256.Digest {
            guard level >= 0, level < 64, index < UInt64.max >> UInt64(level) else {
                throw ProofStoreError("no index hash at level \(level), index \(index)")
            }
            let position = StoredHashLayout.position(level: level, index: index)
            guard position < count else { throw ProofStoreError("no index hash at level \(level), index \(index) in \(file.path)") }
            let bytes = try file.read(at: start + Int(position) * 32, count: 32)
            guard bytes.count == 32 else { throw ProofStoreError("\(file.path) ends inside an index hash") }
            return SHA256.Digest(bytes: bytes)
        }
    }

    let file: RandomAccessFile
    let trailer: Trailer
    let hashes: TreeHashes

    /// The head for the checkpoint's `user-index` line.
    var head: UserIndexHead { UserIndexHead(entries: trailer.entries, root: trailer.root) }

    static func length(entries: UInt64) -> Int {
        Int(entries) * UserIndexEntry.encodedSize + Int(StoredHashLayout.count(size: entries)) * 32 + Trailer.byteCount
    }

    /// Opens the file at `path`; throws `ProofStoreError` if its trailer or length do not check.
    init(path: String) throws {
        file = try RandomAccessFile(path: path, create: false)
        let size = try file.size()
        guard size >= Trailer.byteCount, let trailer = Trailer.read(try file.read(at: size - Trailer.byteCount, count: Trailer.byteCount)) else {
            throw ProofStoreError("\(path): no readable trailer")
        }
        guard trailer.entries < 1 << 40, size == Self.length(entries: trailer.entries) else {
            throw ProofStoreError("\(path): \(size) bytes, its trailer says \(trailer.entries) entries")
        }
        self.trailer = trailer
        hashes = TreeHashes(file: file, start: Int(trailer.entries) * UserIndexEntry.encodedSize, count: StoredHashLayout.count(size: trailer.entries))
    }

    /// The entry at `position` (one read).
    func entry(at position: UInt64) throws -> UserIndexEntry {
        let b = try file.read(at: Int(position) * UserIndexEntry.encodedSize, count: UserIndexEntry.encodedSize)
        guard b.count == UserIndexEntry.encodedSize else { throw ProofStoreError("\(file.path) ends inside entry \(position)") }
        return Self.entry(b, at: 0)
    }

    static func entry(_ b: [UInt8], at o: Int) -> UserIndexEntry {
        var count: UInt64 = 0
        for i in 0..<8 { count = count << 8 | UInt64(b[o + 32 + i]) }
        return UserIndexEntry(key: SHA256.Digest(bytes: Array(b[o..<(o + 32)])), count: count, chainHash: SHA256.Digest(bytes: Array(b[(o + 40)..<(o + 72)])))
    }

    /// Whether the index root recomputed from the stored hashes is the trailer's (O(log n) reads).
    func rootChecks() throws -> Bool {
        trailer.entries == 0 ? trailer.root == MerkleTree.emptyRoot : try MerkleTree.root(size: trailer.entries, hashes: hashes) == trailer.root
    }

    /// Every entry, checked against the trailer's CRC and for strictly increasing keys.
    func allEntries() throws -> [UserIndexEntry] {
        let total = Int(trailer.entries) * UserIndexEntry.encodedSize
        var entries: [UserIndexEntry] = []
        entries.reserveCapacity(Int(trailer.entries))
        var crc: UInt32 = 0
        var offset = 0
        let chunk = 72 << 14
        var previous: [UInt8]?
        while offset < total {
            let b = try file.read(at: offset, count: min(chunk, total - offset))
            guard b.count == min(chunk, total - offset) else { throw ProofStoreError("\(file.path) ends inside its entries") }
            crc = b.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
            for o in stride(from: 0, to: b.count, by: UserIndexEntry.encodedSize) {
                let key = Array(b[o..<(o + 32)])
                if let previous, !previous.lexicographicallyPrecedes(key) {
                    throw ProofStoreError("\(file.path): entries out of key order at \(entries.count)")
                }
                previous = key
                entries.append(Self.entry(b, at: o))
            }
            offset += b.count
        }
        guard crc == trailer.entriesCRC else { throw ProofStoreError("\(file.path): its entries fail their CRC") }
        return entries
    }

    /// The proof of `user`'s entry, or of its absence: a binary search by key, then inclusion paths.
    func proof(user: String) throws -> UserIndexProof {
        let key = UserIndexEntry.key(user: user).bytes
        var lo: UInt64 = 0, hi = trailer.entries
        var found: UserIndexEntry?
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            let e = try entry(at: mid)
            if e.key.bytes.lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid; found = e }
        }
        func entryProof(_ position: UInt64, _ known: UserIndexEntry? = nil) throws -> UserIndexProof.EntryProof {
            UserIndexProof.EntryProof(position: position, entry: try known ?? entry(at: position),
                                      inclusion: try MerkleTree.inclusionProof(index: position, size: trailer.entries, hashes: hashes))
        }
        if lo < trailer.entries, let found, found.key.bytes == key {
            return UserIndexProof(entries: trailer.entries, membership: .present(try entryProof(lo, found)))
        }
        return UserIndexProof(entries: trailer.entries, membership: .absent(left: lo > 0 ? try entryProof(lo - 1) : nil,
                                                                             right: lo < trailer.entries ? try entryProof(lo) : nil))
    }

    /// Writes the index of `entries` (sorted by key, no key twice) as of log position `size`
    /// whose chain hash is `chainHash`, to `path` (atomically); returns its head.
    @discardableResult
    static func write(entries: [UserIndexEntry], size: UInt64, chainHash: SHA256.Digest, to path: String) throws -> UserIndexHead {
        let out = try DurableFile.Replacement(path: path)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20 + 256)
        var crc: UInt32 = 0
        for entry in entries {
            buffer += entry.bytes
            if buffer.count >= 1 << 20 {
                crc = buffer.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
                try buffer.withUnsafeBytes { try out.append($0) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        crc = buffer.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
        var tree = MerkleAccumulator()
        for entry in entries {
            for stored in tree.append(leafHash: entry.leafHash) { stored.hash.append(to: &buffer) }
            if buffer.count >= 1 << 20 {
                try buffer.withUnsafeBytes { try out.append($0) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        let trailer = Trailer(size: size, chainHash: chainHash, entries: UInt64(entries.count), root: tree.root, entriesCRC: crc)
        buffer += trailer.bytes
        try buffer.withUnsafeBytes { try out.append($0) }
        try out.commit()
        return UserIndexHead(entries: trailer.entries, root: trailer.root)
    }
}
