import Foundation

/// A fresh folder per test, removed when the value goes away; `log` is the place for a log in it
/// (not created: opening a log creates its folder). The one temporary-folder helper of the tests.
public final class Scratch {
    /// The folder's path.
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "ledger-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A log's folder inside the scratch folder.
    public var log: String { path + "/ledger" }

    /// Writes `bytes` to `name` inside the folder and returns the file's path.
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}
