import Foundation
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
