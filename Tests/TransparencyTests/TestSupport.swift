import Foundation

/// Lower-case hex of bytes.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Bytes of a hex string (test vectors only: an odd or bad digit fails the test that uses it).
func bytes(hex text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(digits.count / 2)
    var i = 0
    while i < digits.count {
        guard let high = nibble(digits[i]), let low = nibble(digits[i + 1]) else { return nil }
        out.append(high << 4 | low)
        i += 2
    }
    return out
}

private func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case 0x30...0x39: c - 0x30
    case 0x61...0x66: c - 0x61 + 10
    case 0x41...0x46: c - 0x41 + 10
    default: nil
    }
}

/// A bundled resource's bytes.
func resource(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources") else {
        throw ResourceMissing(name: name)
    }
    return try Data(contentsOf: url)
}

struct ResourceMissing: Error, CustomStringConvertible {
    var name: String
    var description: String { "test resource \(name) is not in the bundle" }
}

/// A small seeded generator; tests print the seed in their failure messages.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Cryptography
import Transparency

/// A digest from 64 hex digits (test vectors).
func digest(_ text: String) -> SHA256.Digest? {
    guard let b = bytes(hex: text), b.count == 32 else { return nil }
    return SHA256.Digest(bytes: b)
}

/// A digest from base64 of 32 bytes (test vectors).
func digest(base64 text: String) -> SHA256.Digest? {
    guard let b = Base64.decode(text), b.count == 32 else { return nil }
    return SHA256.Digest(bytes: b)
}

/// Whether `body` returns without throwing (for tests that tabulate accept/refuse).
func succeeds(_ body: () throws -> Void) -> Bool {
    do {
        try body()
        return true
    } catch {
        return false
    }
}
