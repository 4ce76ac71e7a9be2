import Foundation
@_exported import TestKit

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
