import Foundation
import Testing
import TestKit
@_spi(Testing) @testable import EventStore

/// What the index files must never change: every query answers as on a freshly scanned log.
enum IndexOracle {
    /// A record names another stream (a secondary key) when its payload is `to:NAME`.
    static let keys = SecondaryKeys(name: "test-to/1") { _, payload in
        let text = String(decoding: payload, as: UTF8.self)
        return text.hasPrefix("to:") ? [String(text.dropFirst(3))] : []
    }

    static func options(indexFiles: Bool = true, threshold: Int = 1 << 20, readersSave: Bool = true) -> EventLog.Options {
        var o = EventLog.Options()
        o.readersSaveIndexes = readersSave
        o.secondaryKeys = keys
        o.indexFiles = indexFiles
        o.indexFlushThreshold = threshold
        o.segmentSize = 2048   // several segments for a few dozen records
        return o
    }

    struct Answers: Equatable {
        var head: LogHead
        var streams: [String: [UInt64]]
        var versions: [String: UInt64]
        var keyed: [String: [UInt64]]
        var ids: [String: UInt64]
        var positions: [UInt64]
    }

    /// Every stream, key and id query over `names` and `ids` (and some that are absent).
    static func answers(_ log: EventLog, names: [String], ids: [String]) throws -> Answers {
        var a = Answers(head: log.head, streams: [:], versions: [:], keyed: [:], ids: [:], positions: [])
        for n in names + ["nobody"] {
            a.streams[n] = try log.records(inStream: n).map(\.position)
            a.versions[n] = try log.version(of: n)
            a.keyed[n] = try log.records(withKey: n).map(\.position)
        }
        for id in ids + ["absent-1", "absent-2"] { a.ids[id] = try log.position(ofID: id) ?? 0 }
        for from in stride(from: 1, through: Int(log.head.position) + 1, by: 7) {
            a.positions += try log.records(from: UInt64(from)).prefix(2).map(\.position)
        }
        return a
    }

    /// The answers of a handle that ignores the index files and scans every segment.
    static func fresh(_ dir: String, names: [String], ids: [String]) throws -> Answers {
        try answers(EventLog(directory: dir, access: .read, options: options(indexFiles: false)), names: names, ids: ids)
    }

    static let names = (0..<6).map { "s\($0)" }

    /// A log of `count` records over six streams, a third naming another stream, in batches; index
    /// files saved. Logs of different salts differ only in which stream each record goes to and
    /// which stream it names, so their records have the same sizes and sit at the same offsets.
    static func build(_ dir: String, count: Int = 40, salt: Int = 0, threshold: Int = 1 << 20) throws -> [String] {
        let log = try EventLog(directory: dir, options: options(threshold: threshold))
        var ids: [String] = []
        var i = 0
        while i < count {
            let batch = (i..<min(count, i + 1 + i % 4)).map { j in
                ProposedRecord(id: "id\(j)", stream: "s\((j * 7 + salt) % 6)",
                               payload: Array((j % 3 == 0 ? "to:s\((j + 1 + salt) % 6)" : "p\(j)").utf8))
            }
            try log.append(batch)
            ids += batch.map(\.id)
            i += batch.count
        }
        try log.saveIndexes()
        return ids
    }

    static func snapshot(_ dir: String) -> [String: [UInt8]] {
        let folder = dir + "/indexes"
        var out: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] { out[name] = fileBytes(folder + "/" + name) }
        return out
    }

    static func restore(_ dir: String, _ files: [String: [UInt8]]) {
        let folder = dir + "/indexes"
        try? FileManager.default.removeItem(atPath: folder)
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, bytes) in files { writeFileBytes(folder + "/" + name, bytes) }
    }
}

@Suite struct IndexFiles {
    @Test func aHandleWithIndexFilesAnswersAsAFreshScanAndReadsOnlyTheRecordsAfterTheirHead() throws {
        let dir = Scratch()
        let ids = try IndexOracle.build(dir.path)
        let files = IndexOracle.snapshot(dir.path)
        #expect(files.keys.contains("manifest") && files.keys.filter { $0.hasSuffix(".run") }.count == 3)
        let expected = try IndexOracle.fresh(dir.path, names: IndexOracle.names, ids: ids)
        let log = try EventLog(directory: dir.path, access: .read, options: IndexOracle.options())
        #expect(log.recent.count == 0 && log.runs.count == 3, "the files cover the head: nothing scanned at open")
        #expect(try IndexOracle.answers(log, names: IndexOracle.names, ids: ids) == expected)
        // Records appended by a writer that died before saving are indexed from the segments at the next open.
        do {
            let writer = try EventLog(directory: dir.path, options: IndexOracle.options())
            writer.savesIndexesOnClose = false
            try writer.append([ProposedRecord(id: "late", stream: "s1", payload: Array("to:s4".utf8))])
        }
        let after = try EventLog(directory: dir.path, access: .read, options: IndexOracle.options())
        #expect(try IndexOracle.answers(after, names: IndexOracle.names, ids: ids + ["late"])
                == IndexOracle.fresh(dir.path, names: IndexOracle.names, ids: ids + ["late"]))
    }

    @Test func deletedIndexFilesAreRebuiltFromTheSegments() throws {
        let dir = Scratch()
        let ids = try IndexOracle.build(dir.path)
        let expected = try IndexOracle.fresh(dir.path, names: IndexOracle.names, ids: ids)
        for name in IndexOracle.snapshot(dir.path).keys.sorted() + ["*"] {
            let files = IndexOracle.snapshot(dir.path)
            if name == "*" { try FileManager.default.removeItem(atPath: dir.path + "/indexes") } else { try FileManager.default.removeItem(atPath: dir.path + "/indexes/" + name) }
            for access in [EventLog.Access.read, .write] {
                let log = try EventLog(directory: dir.path, access: access, options: IndexOracle.options())
                #expect(try IndexOracle.answers(log, names: IndexOracle.names, ids: ids) == expected, "\(name) removed, \(access)")
            }
            IndexOracle.restore(dir.path, files)
        }
    }

    /// Each file cut at every byte, and each byte with one bit flipped (a different bit each byte);
    /// in the zero padding of a run's block (the same check as the bytes around it), every 61st byte.
    @Test func indexFilesTruncatedAtEveryByteOrBitFlippedAnswerAsAFreshScan() throws {
        let dir = Scratch()
        let ids = try IndexOracle.build(dir.path, count: 12)
        let expected = try IndexOracle.fresh(dir.path, names: IndexOracle.names, ids: ids)
        let files = IndexOracle.snapshot(dir.path)
        var cases = 0
        // Readers that do not save what they indexed, so each case changes only the file it names.
        let options = IndexOracle.options(readersSave: false)
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let path = dir.path + "/indexes/" + name
            let used = name.hasSuffix(".run") ? IndexRun.headerSize + 16 * Int(bytes.withUnsafeBytes { $0.le64(24) }) : bytes.count
            let offsets = (0..<bytes.count).filter { $0 < used || $0 >= IndexRun.headerSize + 4080 || ($0 - used) % 61 == 0 }
            // A handle that finds damage removes the manifest: each case starts from the saved one.
            let manifest = dir.path + "/indexes/manifest"
            for cut in offsets {
                overwrite(manifest, files["manifest"]!)
                overwrite(path, Array(bytes.prefix(cut)))
                let log = try EventLog(directory: dir.path, access: .read, options: options)
                #expect(try IndexOracle.answers(log, names: IndexOracle.names, ids: ids) == expected, "\(name) cut at \(cut)")
                cases += 1
            }
            for at in offsets {
                overwrite(manifest, files["manifest"]!)
                var flipped = bytes
                flipped[at] ^= UInt8(1 << (at % 8))
                overwrite(path, flipped)
                let log = try EventLog(directory: dir.path, access: .read, options: options)
                #expect(try IndexOracle.answers(log, names: IndexOracle.names, ids: ids) == expected, "\(name) bit flipped at \(at)")
                cases += 1
            }
            overwrite(path, bytes)
        }
        overwrite(dir.path + "/indexes/manifest", files["manifest"]!)
        #expect(cases > 2 * (files["manifest"]!.count + 3 * 200))
        // After all that, a writer finds files it can trust again (or rebuilds them) and answers the same.
        IndexOracle.restore(dir.path, files)
        #expect(try IndexOracle.answers(EventLog(directory: dir.path, options: IndexOracle.options()), names: IndexOracle.names, ids: ids) == expected)
    }

    @Test func indexFilesOfAnotherLogAreNeverUsed() throws {
        let a = Scratch(), b = Scratch()
        let idsA = try IndexOracle.build(a.path, count: 40, salt: 0)
        let idsB = try IndexOracle.build(b.path, count: 40, salt: 1)
        #expect(idsA == idsB && fileBytes(segmentFiles(of: a.path)[0]).count == fileBytes(segmentFiles(of: b.path)[0]).count)
        let expectedA = try IndexOracle.fresh(a.path, names: IndexOracle.names, ids: idsA)
        let filesA = IndexOracle.snapshot(a.path), filesB = IndexOracle.snapshot(b.path)
        // The whole folder, the manifest alone, and each run alone swapped in from the other log.
        var swaps: [[String: [UInt8]]] = [filesB]
        var onlyManifest = filesA
        onlyManifest["manifest"] = filesB["manifest"]
        swaps.append(onlyManifest)
        for (runA, runB) in zip(filesA.keys.filter { $0.hasSuffix(".run") }.sorted(), filesB.keys.filter { $0.hasSuffix(".run") }.sorted()) {
            var one = filesA
            one[runA] = filesB[runB]
            swaps.append(one)
        }
        for (k, files) in swaps.enumerated() {
            IndexOracle.restore(a.path, files)
            let log = try EventLog(directory: a.path, access: .read, options: IndexOracle.options())
            #expect(try IndexOracle.answers(log, names: IndexOracle.names, ids: idsA) == expectedA, "swap \(k)")
        }
    }

    /// The operator accepted a shorter log (a tail cut below the files' head, accepted through
    /// `LogRecovery`), and other records were appended past the cut: the files are not used.
    @Test func indexFilesAheadOfATailCutBelowTheirHeadAreRebuilt() throws {
        let dir = Scratch()
        let ids = try IndexOracle.build(dir.path, count: 30)
        let files = IndexOracle.snapshot(dir.path)
        let last = segmentFiles(of: dir.path).last!
        let cutAt = fileBytes(last).count - 20
        for appendAfter in [false, true] {
            writeFileBytes(last, Array(fileBytes(last).prefix(cutAt)))
            _ = try LogRecovery.accept(try LogRecovery.plan(directory: dir.path), directory: dir.path, stamp: "test")
            IndexOracle.restore(dir.path, files)
            var all = ids
            if appendAfter {
                let writer = try EventLog(directory: dir.path, options: IndexOracle.options(indexFiles: false))
                try writer.append([ProposedRecord(id: "new-a", stream: "s2", payload: Array("to:s5".utf8)),
                                   ProposedRecord(id: "new-b", stream: "s3", payload: Array("q".utf8))])
                all += ["new-a", "new-b"]
                IndexOracle.restore(dir.path, files)
            }
            let expected = try IndexOracle.fresh(dir.path, names: IndexOracle.names, ids: all)
            #expect(expected.head.position < 30 + (appendAfter ? 2 : 0))
            for access in [EventLog.Access.read, .write] {
                let log = try EventLog(directory: dir.path, access: access, options: IndexOracle.options())
                #expect(try IndexOracle.answers(log, names: IndexOracle.names, ids: all) == expected, "append after: \(appendAfter), \(access)")
            }
        }
    }

    /// Random appends (with repeated ids), saves, crashes (a handle dropped without saving, a torn
    /// batch) and reopens, with runs written every few records and merged: the files always answer
    /// as a fresh scan, and a duplicate is refused whichever run or memory holds its id.
    @Test func persistedIndexesEqualAFreshScanAfterAnySequenceOfAppendsDuplicatesCrashesAndReopens() throws {
        for seed in 0..<6 {
            var random = SplitMixRandom(seed: UInt64(seed))
            let dir = Scratch()
            var ids: [String] = []
            var log: EventLog? = try EventLog(directory: dir.path, options: IndexOracle.options(threshold: 1 + seed % 5))
            for step in 0..<30 {
                switch random.next() % 10 {
                case 0...5:
                    let n = 1 + Int(random.next() % 4)
                    let batch = (0..<n).map { k -> ProposedRecord in
                        let repeated = !ids.isEmpty && random.next() % 4 == 0
                        let id = repeated ? ids[Int(random.next() % UInt64(ids.count))] : "r\(seed)-\(step)-\(k)"
                        return ProposedRecord(id: id, stream: "s\(random.next() % 6)", payload: Array((random.next() % 3 == 0 ? "to:s\(random.next() % 6)" : "x\(step)").utf8))
                    }
                    let receipt = try log!.append(batch)
                    let fresh = Set(ids)
                    for d in receipt.duplicates { #expect(fresh.contains(d.id) || batch.prefix(d.index).contains { $0.id == d.id }, "seed \(seed): \(d.id) is not a duplicate") }
                    for a in receipt.appended { #expect(!fresh.contains(a.id), "seed \(seed): \(a.id) appended twice") }
                    ids += receipt.appended.map(\.id)
                case 6:
                    try log!.saveIndexes()
                case 7:
                    log!.savesIndexesOnClose = false   // a crash: nothing saved since the last save
                    log = nil
                    log = try EventLog(directory: dir.path, options: IndexOracle.options(threshold: 1 + seed % 5))
                case 8:
                    // A crash part way through a batch's write: whole frames without a commit, past the committed head.
                    log!.savesIndexesOnClose = false
                    log!.failWritesAfterBytes = 30
                    _ = try? log!.append([ProposedRecord(id: "torn-\(step)", stream: "s0", payload: Array("to:s1".utf8))])
                    log = nil
                    log = try EventLog(directory: dir.path, options: IndexOracle.options(threshold: 1 + seed % 5))
                default:
                    log = nil
                    log = try EventLog(directory: dir.path, options: IndexOracle.options(threshold: 1 + seed % 5))
                }
                let reader = try EventLog(directory: dir.path, access: .read, options: IndexOracle.options())
                reader.savesIndexesOnClose = false
                #expect(try IndexOracle.answers(reader, names: IndexOracle.names, ids: ids)
                        == IndexOracle.fresh(dir.path, names: IndexOracle.names, ids: ids), "seed \(seed) step \(step)")
            }
            #expect(Set(ids).count == ids.count)
        }
    }
}

/// Rewrites a file in place (no temporary file, no fsync: thousands of cases).
func overwrite(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0o644)
    precondition(fd >= 0)
    bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// A small seeded generator (the property test's runs repeat).
struct SplitMixRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
