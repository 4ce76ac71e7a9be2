import Cryptography

/// A consistency proof between two tree sizes: `{"from":M,"to":N,"proof":["<base64>",...]}`.
public struct ConsistencyProof: Sendable, Equatable {
    /// The old tree size.
    public var from: UInt64
    /// The new tree size.
    public var to: UInt64
    /// The RFC 9162 consistency proof hashes.
    public var proof: [SHA256.Digest]

    /// A proof from its parts.
    public init(from: UInt64, to: UInt64, proof: [SHA256.Digest]) {
        self.from = from
        self.to = to
        self.proof = proof
    }

    /// The proof from `from` to `to` read from `log`; empty when the sizes are equal or `from`
    /// is 0 (every tree extends the empty one).
    public init(from: UInt64, to: UInt64, log: some StoredHashes) throws {
        let proof = from == 0 || from == to ? [] : try MerkleTree.consistencyProof(oldSize: from, newSize: to, hashes: log)
        self.init(from: from, to: to, proof: proof)
    }
}

extension ConsistencyProof {
    /// `{"from":M,"to":N,"proof":["<base64>",...]}`.
    public var json: JSONValue {
        .object([("from", .number(from)), ("to", .number(to)), ("proof", UserProof.hashList(proof))])
    }

    /// The proof as compact JSON bytes.
    public var jsonBytes: [UInt8] { json.serialized }

    /// Reads a consistency proof strictly (at most 64 hashes, at most 1 MiB of JSON).
    public init(jsonBytes bytes: [UInt8]) throws(ProofFormatError) {
        var fields = try JSONFields(JSONValue.parse(bytes, limits: JSONValue.Limits(maxBytes: 1 << 20)), path: "")
        from = try fields.number("from")
        to = try fields.number("to")
        proof = try fields.hashes("proof")
        try fields.finish()
    }
}
