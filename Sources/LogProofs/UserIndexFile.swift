import EventStore
import Transparency
import Platform

/// The per-user completeness index kept beside the log: the nodes of its sparse Merkle tree
/// (`UserIndexTree`) in `DIR/proofs/user-nodes`, appended and never changed, and one version
/// record per indexed log size in `DIR/proofs/user-versions`. A version names what it derives
/// from (the log position and that position's chain hash) and what it holds (the root node, the
/// root hash, the number of users, the node file's length when it was written). Bringing the
/// index from one size to the next appends only the paths to the users touched in between:
/// O(k log n) nodes for k records; every earlier version stays readable.
///
/// Nodes (references are file offsets; 0 is the empty subtree), each with its CRC32C:
/// a leaf `L` key(32) count(8, big-endian) chain(32) crc(4), 77 bytes; an inner node `N`
/// leftHash(32) rightHash(32) left(8) right(8) crc(4), 85 bytes. A version record is 112 bytes:
/// magic, size, chain hash, root, entries, root reference, node file length, CRC32C.
///
/// A derived file: a torn or damaged node fails its CRC; a version record that does not read
/// ends the list (the file is cut there); nodes past the last version's length are an unfinished
/// append and cut. The owner (`ProofStore`) checks a version's chain hash against the log and its
/// root against its root node before use, and every proof against the checkpoint.
final class UserIndexFile: UserIndexNodeStore {
    /// One indexed log size.
    struct Version: Equatable {
        var size: UInt64
        var chainHash: SHA256.Digest
        var root: SHA256.Digest
        var entries: UInt64
        var rootRef: UInt64
        var nodesLength: UInt64

        static let magic = Array("LDGUSV01".utf8)
        static let byteCount = 112

        var head: UserIndexHead { UserIndexHead(entries: entries, root: root) }

        var bytes: [UInt8] {
            var out = Self.magic
            LittleEndian.append(size, to: &out)
            chainHash.append(to: &out)
            root.append(to: &out)
            LittleEndian.append(entries, to: &out)
            LittleEndian.append(rootRef, to: &out)
            LittleEndian.append(nodesLength, to: &out)
            LittleEndian.append(CRC32C.checksum(out), to: &out)
            out += [UInt8](repeating: 0, count: Self.byteCount - out.count)
            return out
        }

        static func read(_ b: ArraySlice<UInt8>) -> Version? {
            let b = Array(b)
            guard b.count == byteCount, Array(b[0..<8]) == magic, CRC32C.checksum(Array(b[0..<104])) == LittleEndian.uint32(b, at: 104) else { return nil }
            return Version(size: LittleEndian.uint64(b, at: 8), chainHash: SHA256.Digest(bytes: Array(b[16..<48])),
                           root: SHA256.Digest(bytes: Array(b[48..<80])), entries: LittleEndian.uint64(b, at: 80),
                           rootRef: LittleEndian.uint64(b, at: 88), nodesLength: LittleEndian.uint64(b, at: 96))
        }
    }

    static let nodesMagic = Array("LDGUSN01".utf8) + [UInt8](repeating: 0, count: 56)
    static let leafBytes = 77, innerBytes = 85

    let nodes: RandomAccessFile
    let versionsFile: RandomAccessFile
    /// The versions, in the order they were written.
    private(set) var versions: [Version] = []
    /// Nodes added and not yet written, and the file offset where they start.
    private var pending: [UInt8] = []
    private var pendingStart: Int
    /// Nodes read since the file was opened (what a proof cost).
    private(set) var reads = 0
    /// What was found wrong and cut or started again, one sentence each.
    private(set) var notes: [String] = []

    /// Opens (creating) the two files under `directory`; cuts a torn version record and an
    /// unfinished node append, and starts both files again when they do not fit together.
    init(directory: String) throws {
        nodes = try RandomAccessFile(path: directory + "/user-nodes", create: true)
        versionsFile = try RandomAccessFile(path: directory + "/user-versions", create: true)
        pendingStart = Self.nodesMagic.count
        let nodesLength = try nodes.size()
        if nodesLength == 0 {
            try reset(nil)
            return
        }
        guard nodesLength >= Self.nodesMagic.count, try nodes.read(at: 0, count: Self.nodesMagic.count) == Self.nodesMagic else {
            try reset("\(nodes.path): no header")
            return
        }
        let bytes = try versionsFile.read(at: 0, count: try versionsFile.size())
        var offset = 0, committed = UInt64(Self.nodesMagic.count)
        while offset + Version.byteCount <= bytes.count, let version = Version.read(bytes[offset..<(offset + Version.byteCount)]),
              version.nodesLength >= committed, version.nodesLength <= UInt64(nodesLength),
              version.rootRef == 0 || version.rootRef < version.nodesLength {
            versions.append(version)
            committed = version.nodesLength
            offset += Version.byteCount
        }
        if offset < bytes.count {
            notes.append("\(versionsFile.path): cut after \(versions.count) version(s) (a torn or damaged record)")
            try versionsFile.truncate(to: offset)
        }
        if UInt64(nodesLength) > committed { try nodes.truncate(to: Int(committed)) }
        pendingStart = Int(committed)
    }

    /// Empties both files (noting `reason`): the index of no user at no size.
    func reset(_ reason: String?) throws {
        if let reason { notes.append("\(reason); built again from the log") }
        // Versions first: a version never names nodes that are gone.
        try versionsFile.truncate(to: 0)
        try nodes.truncate(to: 0)
        try nodes.write(Self.nodesMagic, at: 0)
        versions = []
        pending = []
        pendingStart = Self.nodesMagic.count
    }

    // MARK: Nodes

    func node(_ ref: UInt64) throws -> UserIndexNode {
        guard ref >= UInt64(Self.nodesMagic.count), ref < UInt64(pendingStart + pending.count) else {
            throw ProofStoreError("\(nodes.path): no node at offset \(ref)")
        }
        reads += 1
        let offset = Int(ref)
        if offset >= pendingStart {
            let start = offset - pendingStart
            return try Self.decode(Array(pending[start..<min(pending.count, start + Self.innerBytes)]), at: ref, path: nodes.path)
        }
        return try Self.decode(try nodes.read(at: offset, count: min(Self.innerBytes, pendingStart - offset)), at: ref, path: nodes.path)
    }

    static func decode(_ b: [UInt8], at ref: UInt64, path: String) throws -> UserIndexNode {
        func damaged() -> ProofStoreError { ProofStoreError("\(path): the node at offset \(ref) is damaged (tag or CRC)") }
        guard let tag = b.first else { throw damaged() }
        switch tag {
        case 0x4C:
            guard b.count >= leafBytes, CRC32C.checksum(Array(b[0..<73])) == LittleEndian.uint32(b, at: 73) else { throw damaged() }
            var count: UInt64 = 0
            for i in 33..<41 { count = count << 8 | UInt64(b[i]) }
            return .leaf(UserIndexEntry(key: SHA256.Digest(bytes: Array(b[1..<33])), count: count, chainHash: SHA256.Digest(bytes: Array(b[41..<73]))))
        case 0x4E:
            guard b.count >= innerBytes, CRC32C.checksum(Array(b[0..<81])) == LittleEndian.uint32(b, at: 81) else { throw damaged() }
            return .inner(leftHash: SHA256.Digest(bytes: Array(b[1..<33])), rightHash: SHA256.Digest(bytes: Array(b[33..<65])),
                          left: LittleEndian.uint64(b, at: 65), right: LittleEndian.uint64(b, at: 73))
        default:
            throw damaged()
        }
    }

    static func encode(_ node: UserIndexNode, into out: inout [UInt8]) {
        let start = out.count
        switch node {
        case .leaf(let entry):
            out.append(0x4C)
            out += entry.bytes
        case .inner(let leftHash, let rightHash, let left, let right):
            out.append(0x4E)
            leftHash.append(to: &out)
            rightHash.append(to: &out)
            LittleEndian.append(left, to: &out)
            LittleEndian.append(right, to: &out)
        }
        let crc = out.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        LittleEndian.append(crc, to: &out)
    }

    func add(_ node: UserIndexNode) throws -> UInt64 {
        let ref = UInt64(pendingStart + pending.count)
        Self.encode(node, into: &pending)
        if pending.count >= 1 << 20 { try flush() }
        return ref
    }

    /// Writes the nodes added so far (not yet durable).
    func flush() throws {
        guard !pending.isEmpty else { return }
        try nodes.write(pending, at: pendingStart)
        pendingStart += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: Versions

    /// Makes the nodes added durable, then records `version` (whose root they hold).
    func commit(size: UInt64, chainHash: SHA256.Digest, rootRef: UInt64, entries: UInt64) throws -> Version {
        try flush()
        try nodes.sync()
        let version = Version(size: size, chainHash: chainHash, root: try UserIndexTree.hash(rootRef, in: self), entries: entries,
                              rootRef: rootRef, nodesLength: UInt64(pendingStart))
        try versionsFile.write(version.bytes, at: versions.count * Version.byteCount)
        try versionsFile.sync()
        versions.append(version)
        return version
    }
}
