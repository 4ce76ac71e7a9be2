import Foundation
import Testing

/// A log built by the binary from a generated population (seed printed), a signing key, and the
/// helpers the proof tests share: run the proof commands, read and rewrite proof JSON.
struct ProofFixture {
    let folder: String
    var log: String { folder + "/log" }
    var key: String { folder + "/key" }
    var verifier: String { folder + "/key.pub" }

    /// A fresh folder with a log of `users` generated users (seed printed) and a key named `name`.
    init(users: Int = 30, seed: UInt64, name: String = "example.com/ledger") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("proofs-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        print("ProofFixture: generate --users \(users) --seed \(seed)")
        let events = folder + "/events.jsonl"
        try Self.ok(Tool.run(["generate", "--users", "\(users)", "--seed", "\(seed)", "--out", events]))
        try Self.ok(Tool.run(["import", "--log", log, events]))
        try Self.ok(Tool.run(["keygen", "--name", name, "--out", key]))
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    struct Failed: Error, CustomStringConvertible { var description: String }

    @discardableResult
    static func ok(_ run: ToolRun) throws -> ToolRun {
        guard run.status == 0 else { throw Failed(description: "exit \(run.status): \(run.err)") }
        return run
    }

    /// Signs a checkpoint of the log's head; returns its path.
    func checkpoint(_ name: String, key: String? = nil, log: String? = nil) throws -> String {
        let path = folder + "/" + name
        let run = try Self.ok(Tool.run(["checkpoint", "--log", log ?? self.log, "--key", key ?? self.key]))
        try run.out.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `prove --user` for `user` against the checkpoint at `checkpoint`; the proof's text.
    func prove(_ user: String, _ checkpoint: String, log: String? = nil) throws -> String {
        try Self.ok(Tool.run(["prove", "--log", log ?? self.log, "--user", user, "--checkpoint", checkpoint])).out
    }

    /// Writes `text` as a proof file; returns its path.
    func write(_ text: String, _ name: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `check-proof` of `proof` (a text), with extra options.
    func check(_ proof: String, _ extra: [String] = [], verifier: String? = nil) throws -> ToolRun {
        let path = try write(proof, "checked-\(UUID().uuidString).json")
        return Tool.run(["check-proof", "--verifier", verifier ?? self.verifier] + extra + [path])
    }

    /// The users of the log, from its export, in order of first appearance.
    func users() throws -> [String] {
        var seen: [String] = []
        for line in try Self.ok(Tool.run(["export", "--log", log])).out.split(separator: "\n") {
            let user = (Tool.json(String(line)) as! [String: Any])["user"] as! String
            if !seen.contains(user) { seen.append(user) }
        }
        return seen
    }

    /// The export lines (without newlines).
    func exportLines() throws -> [String] {
        try Self.ok(Tool.run(["export", "--log", log])).out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// A proof as a JSON object, and back.
    static func object(_ text: String) -> [String: Any] { Tool.json(text) as! [String: Any] }
    static func text(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]), as: UTF8.self)
    }
}
