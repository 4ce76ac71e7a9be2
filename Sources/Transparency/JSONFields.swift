import Cryptography

/// Typed, strict access to one JSON object's members, naming the field path in every error:
/// every member must be read exactly once (`finish` refuses unknown ones).
struct JSONFields {
    let path: String
    private var members: [(key: String, value: JSONValue)]
    private var read = Set<[UInt8]>()

    init(_ value: JSONValue, path: String) throws(ProofFormatError) {
        guard case .object(let members) = value else { throw ProofFormatError(field: path.isEmpty ? "(top)" : path, "is not an object") }
        self.path = path
        self.members = members
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func optional(_ key: String) -> JSONValue? {
        read.insert(Array(key.utf8))
        return members.first { $0.key.utf8.elementsEqual(key.utf8) }?.value
    }

    mutating func required(_ key: String) throws(ProofFormatError) -> JSONValue {
        guard let value = optional(key) else { throw ProofFormatError(field: fieldPath(key), "is missing") }
        return value
    }

    mutating func number(_ key: String) throws(ProofFormatError) -> UInt64 {
        guard case .number(let n) = try required(key) else { throw ProofFormatError(field: fieldPath(key), "is not a whole number") }
        return n
    }

    mutating func string(_ key: String) throws(ProofFormatError) -> String {
        guard case .string(let s) = try required(key) else { throw ProofFormatError(field: fieldPath(key), "is not a string") }
        return s
    }

    mutating func array(_ key: String, max: Int) throws(ProofFormatError) -> [JSONValue] {
        guard case .array(let a) = try required(key) else { throw ProofFormatError(field: fieldPath(key), "is not an array") }
        guard a.count <= max else { throw ProofFormatError(field: fieldPath(key), "has \(a.count) elements, over the limit of \(max)") }
        return a
    }

    mutating func hash(_ key: String) throws(ProofFormatError) -> SHA256.Digest {
        guard case .string(let s) = try required(key) else { throw ProofFormatError(field: fieldPath(key), "is not a base64 string") }
        return try Self.hash(s, field: fieldPath(key))
    }

    /// A list of base64 hashes; at most `max` (64 by default: no tree of 2^64 leaves needs more).
    mutating func hashes(_ key: String, max: Int = 64) throws(ProofFormatError) -> [SHA256.Digest] {
        let list = try array(key, max: max)
        var out: [SHA256.Digest] = []
        for (i, element) in list.enumerated() {
            guard case .string(let s) = element else { throw ProofFormatError(field: "\(fieldPath(key))[\(i)]", "is not a base64 string") }
            out.append(try Self.hash(s, field: "\(fieldPath(key))[\(i)]"))
        }
        return out
    }

    static func hash(_ text: String, field: String) throws(ProofFormatError) -> SHA256.Digest {
        guard let bytes = Base64.decode(text) else { throw ProofFormatError(field: field, "is not strict base64") }
        guard bytes.count == 32 else { throw ProofFormatError(field: field, "decodes to \(bytes.count) bytes, not a 32-byte hash") }
        return SHA256.Digest(bytes: bytes)
    }

    /// Refuses members that were not read.
    func finish() throws(ProofFormatError) {
        for member in members where !read.contains(Array(member.key.utf8)) {
            throw ProofFormatError(field: fieldPath(member.key), "is not a known field")
        }
    }
}
