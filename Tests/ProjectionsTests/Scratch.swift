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
