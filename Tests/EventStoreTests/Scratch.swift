import Foundation

/// A fresh folder per test, removed when the value goes away; `log` is the place for a log in it
/// (not created: opening a log creates its folder). Each test target holds this same helper.
final class Scratch {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "ledger-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    /// A log's folder inside the scratch folder.
    var log: String { path + "/ledger" }
}

/// The segment files of the log in `log`, in order.
func segmentFiles(of log: String) -> [String] {
    let folder = log + "/segments"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".seg") }.sorted().map { folder + "/" + $0 }
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func fileBytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path)!) }

func writeFileBytes(_ path: String, _ b: [UInt8]) { _ = FileManager.default.createFile(atPath: path, contents: Data(b)) }
