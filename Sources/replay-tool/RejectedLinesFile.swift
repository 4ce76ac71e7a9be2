import Foundation
import EventStore
import Projections
import Platform

/// Where `import` keeps rejected lines: DIR/rejected/import-TIME.jsonl (each line verbatim) and
/// import-TIME.reasons beside it (`file:line: reason`), both created at the first rejected line.
/// Each line is written as the importer finds it, through a buffer of 64 KiB (a longer piece goes
/// straight to the file), and its reason is also printed on stderr: no rejected line is held whole.
struct RejectedLinesFile: RejectedLineSink {
    let folder: String
    /// The .jsonl file, once a line was rejected.
    private(set) var path: String?
    private var lines = BufferedFile()
    private var reasons = BufferedFile()
    private var folderSynced = false
    /// Lines were rejected since the last `sync`.
    private var unsynced = false

    /// Whether each rejection is also printed on stderr (a server keeps them to the files).
    var echoes = true

    init(logDirectory: String) { folder = logDirectory + "/rejected" }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        try openIfNeeded()
        try lines.write(bytes)
    }

    mutating func reject(_ rejection: EventImporter.Rejection) throws {
        try openIfNeeded()
        try Self.newline.withUnsafeBytes { try lines.write($0) }
        try Array((rejection.description + "\n").utf8).withUnsafeBytes { try reasons.write($0) }
        unsynced = true
        if echoes { Console.err(rejection.description) }
    }

    /// Writes what is buffered and fsyncs both files (and, the first time, the folder holding
    /// them): `import --follow` does this before acknowledging a group with rejected lines.
    mutating func sync() throws {
        guard path != nil, unsynced else { return }
        try lines.sync()
        try reasons.sync()
        if !folderSynced {
            try BufferedFile.syncFolder(folder)
            folderSynced = true
        }
        unsynced = false
    }

    /// Writes what is buffered and closes both files (nothing to do if no line was rejected).
    mutating func close() throws {
        defer { lines.close(); reasons.close() }
        try lines.flush()
        try reasons.flush()
    }

    static let newline: [UInt8] = [0x0A]

    private mutating func openIfNeeded() throws {
        guard path == nil else { return }
        do {
            try PlatformDirectory.create(folder)
        } catch let e as any LocatedError {
            throw ToolError.input("\(folder): cannot write the rejected lines (\(e.description))")
        }
        let stamp = Common.now().description.replacingOccurrences(of: ":", with: "")
        for n in 1... {
            let base = folder + "/import-" + stamp + (n == 1 ? "" : "-\(n)")
            let fd = open(base + ".jsonl", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 && errno == EEXIST { continue }
            guard fd >= 0 else { throw BufferedFile.failure("open", base + ".jsonl") }
            lines = BufferedFile(fd: fd, path: base + ".jsonl")
            let rfd = open(base + ".reasons", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard rfd >= 0 else { throw BufferedFile.failure("open", base + ".reasons") }
            reasons = BufferedFile(fd: rfd, path: base + ".reasons")
            path = base + ".jsonl"
            return
        }
    }
}
