/// `DIR/indexes/manifest`: which log head the index files cover and which run files hold them
/// (docs/log-format.md). Replaced whole (a temporary file renamed over it) by a handle holding the
/// writer lock; checked by CRC32C, and against the log (the record at the covered position must
/// be where it says and hash to the covered hash) before anything in it is used.
struct IndexManifest: Equatable {
    static let magic = Array("LDGIMAN1".utf8)
    static let formatVersion: UInt32 = 1
    static let fileName = "manifest"

    struct Run: Equatable {
        var kind: UInt32
        var nonce: UInt64
        var count: Int
    }

    struct Sample: Equatable {
        var position: UInt64
        var location: UInt64
        var recorded: Int64
    }

    /// Bumped at every replacement: a handle whose runs came from another generation reloads first.
    var generation: UInt64
    /// The secondary-key function's name the key runs were built with ("" for none).
    var keysName: String
    /// The last position indexed, its chain hash, and where its frame starts.
    var head: LogHead
    var headLocation: UInt64
    /// The base position of every segment up to the head's.
    var segmentBases: [UInt64]
    var runs: [Run]
    var samples: [Sample]

    static func runName(kind: UInt32, nonce: UInt64) -> String {
        let hex = String(nonce, radix: 16)
        return "\(IndexKind.name(kind))-\(String(repeating: "0", count: 16 - hex.count))\(hex).run"
    }

    func encoded() -> [UInt8] {
        var b = Self.magic
        b.appendLE(Self.formatVersion)
        b.appendLE(generation)
        let name = Array(keysName.utf8)
        b.appendLE(UInt16(name.count))
        b.append(contentsOf: name)
        b.appendLE(head.position)
        head.hash.append(to: &b)
        b.appendLE(headLocation)
        b.appendLE(UInt32(segmentBases.count))
        for s in segmentBases { b.appendLE(s) }
        b.appendLE(UInt32(runs.count))
        for r in runs { b.appendLE(r.kind); b.appendLE(r.nonce); b.appendLE(UInt64(r.count)) }
        b.appendLE(UInt32(samples.count))
        for s in samples { b.appendLE(s.position); b.appendLE(s.location); b.appendLE(UInt64(bitPattern: s.recorded)) }
        b.appendLE(b.withUnsafeBytes { CRC32C.checksum($0) })
        return b
    }

    /// The manifest in `bytes`, or why it is not one this code reads.
    static func decode(_ bytes: [UInt8]) -> Result<IndexManifest, IndexRun.Damaged> {
        bytes.withUnsafeBytes { b -> Result<IndexManifest, IndexRun.Damaged> in
            var at = 0
            func need(_ n: Int) throws { if at + n > b.count - 4 { throw IndexRun.Damaged(why: "manifest cut short") } }
            func u16() throws -> UInt16 { try need(2); defer { at += 2 }; return b.le16(at) }
            func u32() throws -> UInt32 { try need(4); defer { at += 4 }; return b.le32(at) }
            func u64() throws -> UInt64 { try need(8); defer { at += 8 }; return b.le64(at) }
            do {
                guard b.count >= 16, b.prefix(8).elementsEqual(magic),
                      CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[0..<(b.count - 4)])) == b.le32(b.count - 4) else {
                    throw IndexRun.Damaged(why: "manifest fails its CRC")
                }
                at = 8
                guard try u32() == formatVersion else { throw IndexRun.Damaged(why: "manifest of another format version") }
                let generation = try u64()
                let nameLength = Int(try u16())
                try need(nameLength)
                let keysName = String(decoding: UnsafeRawBufferPointer(rebasing: b[at..<(at + nameLength)]), as: UTF8.self)
                at += nameLength
                let position = try u64()
                try need(32)
                let hash = SHA256.Digest(raw: UnsafeRawBufferPointer(rebasing: b[at..<(at + 32)]))
                at += 32
                let headLocation = try u64()
                let segmentCount = Int(try u32())
                try need(segmentCount * 8)
                let bases = try (0..<segmentCount).map { _ in try u64() }
                let runCount = Int(try u32())
                try need(runCount * 20)
                let runs = try (0..<runCount).map { _ in Run(kind: try u32(), nonce: try u64(), count: Int(truncatingIfNeeded: try u64())) }
                let sampleCount = Int(try u32())
                try need(sampleCount * 24)
                let samples = try (0..<sampleCount).map { _ in Sample(position: try u64(), location: try u64(), recorded: Int64(bitPattern: try u64())) }
                guard at == b.count - 4 else { throw IndexRun.Damaged(why: "manifest has bytes after its samples") }
                guard runs.allSatisfy({ IndexKind.all.contains($0.kind) && $0.count > 0 && $0.count < 1 << 40 }) else {
                    throw IndexRun.Damaged(why: "manifest names an impossible run")
                }
                return .success(IndexManifest(generation: generation, keysName: keysName, head: LogHead(position: position, hash: hash),
                                              headLocation: headLocation, segmentBases: bases, runs: runs, samples: samples))
            } catch let damaged as IndexRun.Damaged {
                return .failure(damaged)
            } catch {
                return .failure(IndexRun.Damaged(why: "\(error)"))
            }
        }
    }
}

/// The three kinds of index run.
enum IndexKind {
    /// Record id hash → location (dedupe).
    static let ids: UInt32 = 1
    /// Stream name hash → location (one stream's records, its last version).
    static let streams: UInt32 = 2
    /// Secondary key hash → location (records that name a key, e.g. transfers naming a user).
    static let keys: UInt32 = 3
    static let all: [UInt32] = [ids, streams, keys]

    static func name(_ kind: UInt32) -> String {
        switch kind {
        case ids: "ids"
        case streams: "streams"
        default: "keys"
        }
    }
}
