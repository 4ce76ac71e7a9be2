import Foundation

/// The segment files of the log in `log`, in order.
func segmentFiles(of log: String) -> [String] {
    let folder = log + "/segments"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".seg") }.sorted().map { folder + "/" + $0 }
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func fileBytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path)!) }

func writeFileBytes(_ path: String, _ b: [UInt8]) { _ = FileManager.default.createFile(atPath: path, contents: Data(b)) }
