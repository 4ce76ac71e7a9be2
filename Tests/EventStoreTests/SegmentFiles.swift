import Foundation
import Testing
import TestKit
@testable import EventStore

/// The segment files of the log in `log`, in order.
func segmentFiles(of log: String) -> [String] {
    let folder = log + "/segments"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".seg") }.sorted().map { folder + "/" + $0 }
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func fileBytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path)!) }

func writeFileBytes(_ path: String, _ b: [UInt8]) { _ = FileManager.default.createFile(atPath: path, contents: Data(b)) }

/// Writes `batches` batches of `perBatch` records into a new log in `dir` whose segments roll at
/// `segmentSize` bytes (so a few dozen records make several segments); the writer closes, saving
/// its index files. Returns the options, for handles that open it again.
@discardableResult
func smallSegmentLog(_ dir: String, segmentSize: Int, batches: Int, perBatch: Int) throws -> EventLog.Options {
    var options = EventLog.Options()
    options.segmentSize = segmentSize
    let log = try EventLog(directory: dir, options: options)
    for batch in 0..<batches { try log.append(proposed(perBatch, prefix: "b\(batch)-")) }
    return options
}

/// A log of 30 records in ten batches whose segments roll at 1,000 bytes, in a new scratch
/// folder (its writer saved its index files): the folder and its segment files, in order, more
/// than three of them.
func severalSegmentLog() throws -> (dir: Scratch, files: [String]) {
    let dir = Scratch()
    try smallSegmentLog(dir.path, segmentSize: 1_000, batches: 10, perBatch: 3)
    let files = segmentFiles(of: dir.path)
    #expect(files.count > 3)
    return (dir, files)
}
