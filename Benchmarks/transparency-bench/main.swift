// A small release-mode benchmark: `swift run -c release transparency-bench`.
// Prints the rate of each operation the integrator's commands lean on. Nothing is asserted.
import Cryptography
import Dispatch
import Transparency

/// Runs `body` `count` times and prints the rate.
func measure(_ name: String, count: Int, _ body: (Int) throws -> Void) rethrows {
    let start = DispatchTime.now().uptimeNanoseconds
    for i in 0..<count { try body(i) }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let rate = Double(count) / seconds
    print("\(name): \(count) in \(String(format: seconds)) s, \(Int(rate)) per second")
}

extension String {
    init(format seconds: Double) { self = String(Double(Int(seconds * 1000)) / 1000) }
}

guard let key = Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32)) else { fatalError("a 32-byte seed makes a key") }
let message = [UInt8](repeating: 0x61, count: 200)
let signature = key.signature(for: message)
var sink = 0
measure("Ed25519 key from seed", count: 200) { i in sink &+= Ed25519.PrivateKey(seed: [UInt8](repeating: UInt8(i & 0xff), count: 32))?.publicKey.bytes[0].hashValue ?? 0 }
measure("Ed25519 sign (200 bytes)", count: 200) { _ in sink &+= Int(key.signature(for: message)[0]) }
measure("Ed25519 verify (200 bytes)", count: 200) { _ in sink &+= key.publicKey.isValidSignature(signature, for: message) ? 1 : 0 }

func merkleBenchmarks() throws {
    var accumulator = MerkleAccumulator()
    var stored = FlatStoredHashes()
    let leafCount = 1_000_000
    measure("Merkle append (leaf hash + frontier + stored hashes)", count: leafCount) { i in
        var line = Array("{\"position\":\(i),\"user\":\"u\(i % 1000)\"}".utf8)
        line.append(0)
        stored.append(accumulator.append(leaf: line))
    }
    let root = accumulator.root
    let size = UInt64(leafCount)
    try measure("inclusion proof from stored hashes + verify", count: 20_000) { i in
        let index = UInt64(i &* 48_271) % size
        let proof = try MerkleTree.inclusionProof(index: index, size: size, hashes: stored)
        let leafHash = try stored.hash(level: 0, index: index)
        try MerkleTree.verifyInclusion(leafHash: leafHash, index: index, size: size, proof: proof, root: root)
    }
    try measure("consistency proof from stored hashes + verify", count: 5_000) { i in
        let old = UInt64(i &* 7919) % (size - 1) + 1
        let proof = try MerkleTree.consistencyProof(oldSize: old, newSize: size, hashes: stored)
        try MerkleTree.verifyConsistency(oldSize: old, newSize: size, oldRoot: MerkleTree.root(size: old, hashes: stored), newRoot: root, proof: proof)
    }
    var users: [(user: String, chain: RecordChain)] = []
    for u in 0..<100_000 { users.append((user: "user-\(u)", chain: RecordChain(leafHashes: [SHA256.hash([UInt8(u & 0xff)])]))) }
    var index: UserIndex?
    try measure("user index build, 100000 users", count: 1) { _ in index = try UserIndex(users: users) }
    if let index {
        try measure("user index proof (present or absent)", count: 10_000) { i in
            let proof = try index.proof(user: "user-\(i * 13)")
            _ = try proof.verify(user: "user-\(i * 13)", head: index.head)
        }
    }
}

do {
    try merkleBenchmarks()
} catch {
    print("benchmark failed: \(error)")
}
print("(sink \(sink & 1))")
