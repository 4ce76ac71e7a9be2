import Foundation
import Cryptography
@testable import Transparency

/// A small log as the integrator would keep it: export lines, the stored hash file (as a flat
/// list), each user's chain, the user index, and checkpoints signed by a fixed key.
struct TestLog {
    static let signer: NoteSigner = {
        guard let key = Ed25519.PrivateKey(seed: [UInt8](repeating: 0x11, count: 32)),
              let signer = try? NoteSigner(name: "ledger.example/log", privateKey: key) else {
            preconditionFailure("a 32-byte seed and a valid name make a signer")
        }
        return signer
    }()

    var lines: [String] = []
    var users: [String] = []
    var accumulator = MerkleAccumulator()
    var stored = FlatStoredHashes()
    var chains: [String: RecordChain] = [:]

    /// A log of `count` records spread over `userCount` users by a seeded generator.
    init(count: Int, userCount: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for position in 1...max(1, count) where count > 0 {
            let user = "user-\(Int.random(in: 0..<userCount, using: &random))"
            append(line: "{\"position\":\(position),\"user\":\"\(user)\",\"type\":\"renewal\",\"amount\":\(Int.random(in: 1...999, using: &random))}", user: user)
        }
    }

    mutating func append(line: String, user: String) {
        let leafHash = MerkleTree.leafHash(Array(line.utf8))
        stored.append(accumulator.append(leafHash: leafHash))
        lines.append(line)
        users.append(user)
        chains[user, default: RecordChain()].append(leafHash: leafHash)
    }

    var size: UInt64 { UInt64(lines.count) }

    func userIndex() throws -> UserIndex {
        try UserIndex(users: chains.map { (user: $0.key, chain: $0.value) })
    }

    /// The signed checkpoint of the whole log.
    func checkpoint(signer: NoteSigner = TestLog.signer, origin: String = "ledger.example/log") throws -> String {
        let head = try userIndex().head
        return try Checkpoint(origin: origin, size: size, root: accumulator.root, userIndex: head).signed(by: signer)
    }

    /// `prove` for one user against `checkpoint`.
    func proof(user: String, checkpoint: String) throws -> UserProof {
        let records = lines.indices.filter { users[$0] == user }.map { (index: UInt64($0), line: lines[$0]) }
        return try UserProof(checkpoint: checkpoint, size: size, user: user, records: records, log: stored, index: userIndex())
    }

    /// The user named in an export line (what the integrator's line decoder does).
    static func userOfLine(_ line: String) -> String? {
        guard let start = line.range(of: "\"user\":\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
