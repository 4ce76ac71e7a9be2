import AppleChainFixture
import Foundation
@_exported import TestKit

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
