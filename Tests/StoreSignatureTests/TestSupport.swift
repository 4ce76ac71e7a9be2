import AppleChainFixture
import Foundation

/// A seeded generator (SplitMix64); tests put the seed in their failure messages.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e3779b97f4a7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
        z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

enum Resources {
    /// The bytes of a file under this test target's Resources folder.
    static func bytes(_ path: String) throws -> [UInt8] {
        let parts = path.split(separator: "/")
        let directory = (["Resources"] + parts.dropLast().map(String.init)).joined(separator: "/")
        guard let name = parts.last,
              let url = Bundle.module.url(forResource: String(name), withExtension: nil, subdirectory: directory) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Resources/\(path)"])
        }
        return try [UInt8](Data(contentsOf: url))
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

enum Base64URL {
    /// Unpadded base64url (test-side encoder, built on Foundation's).
    static func encode(_ bytes: [UInt8]) -> String { OpenSSLChain.base64URL(bytes) }
}
