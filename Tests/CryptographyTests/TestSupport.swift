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

