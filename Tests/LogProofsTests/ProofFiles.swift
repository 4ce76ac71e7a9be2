import Foundation
import TestKit
import LedgerFixture
import EventStore
@testable import LogProofs

/// A log of `lines` (the sample story by default) and its proof files, and ways to damage those.
final class ProofLog {
    let log: TestLog
    var path: String { log.path }
    var proofs: String { path + "/proofs" }

    init(_ lines: [String] = LedgerFixture.story) throws { log = try TestLog(lines) }

    /// The log opened as `prove` opens it, with its proof store.
    func store() throws -> ProofStore { try ProofStore(log: try EventLog(directory: path, access: .read)) }

    /// Every record's export line, in position order.
    func exportLines() throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        try EventLog(directory: path, access: .read).forEach(through: .max) { record in
            var line: [UInt8] = []
            try ExportLine.encode(record, into: &line)
            out.append(line)
        }
        return out
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: proofs + "/" + name)))
    }

    /// Replaces a proof file's bytes (in place: the file is the same file, as damage on disk would leave it).
    func write(_ name: String, _ bytes: [UInt8]) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: proofs + "/" + name))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: bytes)
    }

    /// Flips one bit of the byte at `offset` (from the end when negative).
    func flip(_ name: String, at offset: Int) throws {
        var b = try bytes(name)
        let i = offset >= 0 ? offset : b.count + offset
        b[i] ^= 0x10
        try write(name, b)
    }

    /// Cuts a proof file to `length` bytes.
    func cut(_ name: String, to length: Int) throws { try write(name, Array(try bytes(name).prefix(length))) }
}
