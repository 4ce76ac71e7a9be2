import Foundation
import EventStore
import Projections
import Platform
import Ingest

/// Where `import` keeps rejected lines: DIR/rejected/import-TIME.jsonl (each line verbatim) and
/// import-TIME.reasons beside it (`file:line: reason`), both created at the first rejected line.
/// Each line is written as the importer finds it, through a buffer of 64 KiB (a longer piece goes
/// straight to the file), and its reason is also printed on stderr: no rejected line is held whole.
struct RejectedLinesFile: RejectedLineSink {
    let folder: String
    /// The .jsonl file, once a line was rejected.
    private(set) var path: String?
    private var lines: BufferedFile?
    private var reasons: BufferedFile?
    private var folderSynced = false
    /// Lines were rejected since the last `sync`.
    private var unsynced = false

    /// Whether each rejection is also printed on stderr (a server keeps them to the files).
    var echoes = true

    init(logDirectory: String) { folder = logDirectory + "/rejected" }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        let (lines, _) = try openIfNeeded()
        try kept { try lines.write(bytes) }
    }

    mutating func reject(_ rejection: EventImporter.Rejection) throws {
        let (lines, reasons) = try openIfNeeded()
        try kept {
            try Self.newline.withUnsafeBytes { try lines.write($0) }
            try Array((rejection.description + "\n").utf8).withUnsafeBytes { try reasons.write($0) }
        }
        unsynced = true
        if echoes { Console.err(rejection.description) }
    }

    /// Writes what is buffered and fsyncs both files (and, the first time, the folder holding
    /// them): `import --follow` does this before acknowledging a group with rejected lines.
    mutating func sync() throws {
        guard let lines, let reasons, unsynced else { return }
        try kept {
            try lines.sync()
            try reasons.sync()
            if !folderSynced { try PlatformDirectory.sync(folder) }
        }
        folderSynced = true
        unsynced = false
    }

    /// Writes what is buffered and closes both files (nothing to do if no line was rejected).
    mutating func close() throws {
        defer { lines = nil; reasons = nil }
        try kept {
            try lines?.flush()
            try reasons?.flush()
        }
    }

    /// Runs `body`, turning a failed write into the one-line error of the rejected lines.
    private func kept(_ body: () throws -> Void) throws {
        do { try body() } catch let e as SystemError {
            throw ToolError.input("\(e.path ?? folder): cannot keep the rejected lines: \(e.message)")
        }
    }

    static let newline: [UInt8] = [0x0A]

    private mutating func openIfNeeded() throws -> (BufferedFile, BufferedFile) {
        if let lines, let reasons { return (lines, reasons) }
        do {
            try PlatformDirectory.create(folder)
        } catch let e as any LocatedError {
            throw ToolError.input("\(folder): cannot write the rejected lines (\(e.description))")
        }
        let stamp = Common.now().description.replacingOccurrences(of: ":", with: "")
        var n = 1
        while true {
            let base = folder + "/import-" + stamp + (n == 1 ? "" : "-\(n)")
            n += 1
            var created: BufferedFile?
            do {
                created = try BufferedFile(creating: base + ".jsonl", exclusive: true)
            } catch let e as SystemError where e.errno == EEXIST {
                continue
            } catch let e as SystemError {
                throw ToolError.input("\(e.path ?? base): cannot keep the rejected lines: \(e.message)")
            }
            guard let created else { continue }
            var opened: (BufferedFile, BufferedFile)?
            try kept { opened = (created, try BufferedFile(creating: base + ".reasons", exclusive: false)) }
            guard let opened else { continue }
            (lines, reasons) = opened
            path = base + ".jsonl"
            return opened
        }
    }
}
