import EventStore
import Transparency
import Platform

/// `DIR/proofs/hashes`: the stored hashes of the log's Merkle tree (RFC 9162 §2.1, leaf `i` the
/// export line of position `i + 1`), 32 bytes each in `StoredHashLayout` order after a 96-byte
/// header naming what they derive from: the tree size (the log position covered), that
/// position's chain hash, and the tree's root, with a CRC32C of those fields.
///
/// A derived file: the owner (`ProofStore`) checks the header against the log and the root
/// against the stored frontier before any use, and starts it again otherwise. Reading one hash
/// is one 32-byte read, so a proof costs O(log n) reads.
final class TreeHashFile: StoredHashes {
    /// What the file's hashes are of.
    struct Header: Equatable {
        var size: UInt64
        var chainHash: SHA256.Digest
        var root: SHA256.Digest

        static let empty = Header(size: 0, chainHash: .zero, root: MerkleTree.emptyRoot)
        static let magic = Array("LDGMTH01".utf8)
        static let byteCount = 96

        var bytes: [UInt8] {
            var out = Self.magic
            LittleEndian.append(size, to: &out)
            chainHash.append(to: &out)
            root.append(to: &out)
            LittleEndian.append(CRC32C.checksum(out), to: &out)
            out += [UInt8](repeating: 0, count: Self.byteCount - out.count)
            return out
        }

        /// The header in `bytes`, or why it is not one.
        static func read(_ bytes: [UInt8]) -> Result<Header, ProofStoreError> {
            guard bytes.count == byteCount, Array(bytes[0..<8]) == magic else { return .failure(ProofStoreError("no header")) }
            guard CRC32C.checksum(Array(bytes[0..<80])) == LittleEndian.uint32(bytes, at: 80) else {
                return .failure(ProofStoreError("its header fails its CRC"))
            }
            return .success(Header(size: LittleEndian.uint64(bytes, at: 8), chainHash: SHA256.Digest(bytes: Array(bytes[16..<48])),
                                   root: SHA256.Digest(bytes: Array(bytes[48..<80]))))
        }
    }

    let file: RandomAccessFile
    /// What the file holds, as its header says (checked by the owner).
    private(set) var header: Header
    /// Hashes read since the file was opened (what a proof cost).
    private(set) var reads = 0

    /// Opens (creating) the file at `path`; a missing or unreadable header reads as the empty tree
    /// with `problem` saying why, and the owner starts the file again.
    init(path: String) throws {
        file = try RandomAccessFile(path: path, create: true)
        header = .empty
        problem = nil
        let size = try file.size()
        if size == 0 { return }
        switch Header.read(try file.read(at: 0, count: Header.byteCount)) {
        case .success(let h): header = h
        case .failure(let e): problem = e.message
        }
    }

    /// Why the header could not be used, if it could not.
    private(set) var problem: String?

    /// Where the hash at layout position `position` starts.
    static func offset(_ position: UInt64) -> Int { Header.byteCount + Int(position) * 32 }

    /// The file's length for a tree of `size` leaves.
    static func length(size: UInt64) -> Int { offset(StoredHashLayout.count(size: size)) }

    /// The hash of the perfect subtree at (`level`, `index`), one read; it must lie within the tree.
    func hash(level: Int, index: UInt64) throws -> SHA256.Digest {
        guard level >= 0, level < 64, index < UInt64.max >> UInt64(level) else {
            throw ProofStoreError("no stored hash at level \(level), index \(index)")
        }
        let position = StoredHashLayout.position(level: level, index: index)
        guard position < StoredHashLayout.count(size: header.size) else {
            throw ProofStoreError("no stored hash at level \(level), index \(index): beyond the tree of \(header.size) leaves in \(file.path)")
        }
        let bytes = try file.read(at: Self.offset(position), count: 32)
        guard bytes.count == 32 else { throw ProofStoreError("\(file.path) ends inside the hash at layout position \(position)") }
        reads += 1
        return SHA256.Digest(bytes: bytes)
    }

    /// Empties the file: the tree of no leaves.
    func reset() throws {
        try file.truncate(to: 0)
        try file.write(Header.empty.bytes, at: 0)
        try file.sync()
        header = .empty
        problem = nil
    }

    /// Writes `hashes` (32 bytes each, layout order) at layout position `position`.
    func write(_ hashes: [UInt8], atPosition position: UInt64) throws {
        try file.write(hashes, at: Self.offset(position))
    }

    /// Makes the appended hashes durable, then records `header` as what the file holds.
    func commit(_ header: Header) throws {
        try file.sync()
        try file.write(header.bytes, at: 0)
        try file.sync()
        self.header = header
    }
}
