import Cryptography

extension UserProof {
    /// Limits on proofs read from JSON.
    public struct Limits: Sendable {
        /// The largest document, in bytes.
        public var maxBytes: Int
        /// The most records one proof may list.
        public var maxRecords: Int

        /// Limits of `maxBytes` bytes and `maxRecords` records.
        public init(maxBytes: Int = 256 << 20, maxRecords: Int = 1_000_000) {
            self.maxBytes = maxBytes
            self.maxRecords = maxRecords
        }
    }

    /// The proof as JSON.
    public var json: JSONValue {
        .object([
            ("checkpoint", .string(checkpoint)),
            ("size", .number(size)),
            ("user", .string(user)),
            ("records", .array(records.map { record in
                .object([("index", .number(record.index)), ("line", .string(record.line)), ("inclusion", Self.hashList(record.inclusion))])
            })),
            ("completeness", completeness.json),
        ])
    }

    /// The proof as compact JSON bytes.
    public var jsonBytes: [UInt8] { json.serialized }

    /// Reads a proof strictly: every field present with its type, no unknown or repeated field,
    /// hashes strict base64 of 32 bytes, at most 64 per path, within `limits`.
    public init(jsonBytes bytes: [UInt8], limits: Limits = Limits()) throws(ProofFormatError) {
        var fields = try JSONFields(JSONValue.parse(bytes, limits: JSONValue.Limits(maxBytes: limits.maxBytes)), path: "")
        checkpoint = try fields.string("checkpoint")
        size = try fields.number("size")
        user = try fields.string("user")
        records = []
        for (i, element) in try fields.array("records", max: limits.maxRecords).enumerated() {
            var record = try JSONFields(element, path: "records[\(i)]")
            records.append(Record(index: try record.number("index"), line: try record.string("line"), inclusion: try record.hashes("inclusion")))
            try record.finish()
        }
        completeness = try UserIndexProof(json: try fields.required("completeness"), path: "completeness")
        try fields.finish()
    }

    static func hashList(_ hashes: [SHA256.Digest]) -> JSONValue {
        .array(hashes.map { .string(Base64.encode($0.bytes)) })
    }
}

extension UserIndexProof {
    /// `{"entries":K,"entry":E}` for a present user, `{"entries":K,"absent":{"left":E|null,
    /// "right":E|null}}` for an absent one, where E is
    /// `{"position":p,"key":"<base64>","count":c,"chain":"<base64>","inclusion":["<base64>",...]}`.
    public var json: JSONValue {
        switch membership {
        case .present(let proof):
            return .object([("entries", .number(entries)), ("entry", proof.json)])
        case .absent(let left, let right):
            return .object([("entries", .number(entries)),
                            ("absent", .object([("left", left?.json ?? .null), ("right", right?.json ?? .null)]))])
        }
    }

    init(json: JSONValue, path: String) throws(ProofFormatError) {
        var fields = try JSONFields(json, path: path)
        entries = try fields.number("entries")
        let entry = fields.optional("entry")
        let absent = fields.optional("absent")
        switch (entry, absent) {
        case (let entry?, nil):
            membership = .present(try EntryProof(json: entry, path: fields.fieldPath("entry")))
        case (nil, let absent?):
            var sides = try JSONFields(absent, path: fields.fieldPath("absent"))
            let left = try sides.required("left"), right = try sides.required("right")
            membership = .absent(left: left == .null ? nil : try EntryProof(json: left, path: sides.fieldPath("left")),
                                 right: right == .null ? nil : try EntryProof(json: right, path: sides.fieldPath("right")))
            try sides.finish()
        default:
            throw ProofFormatError(field: path, "must have exactly one of entry and absent")
        }
        try fields.finish()
    }
}

extension UserIndexProof.EntryProof {
    var json: JSONValue {
        .object([("position", .number(position)), ("key", .string(Base64.encode(entry.key.bytes))), ("count", .number(entry.count)),
                 ("chain", .string(Base64.encode(entry.chainHash.bytes))), ("inclusion", UserProof.hashList(inclusion))])
    }

    init(json: JSONValue, path: String) throws(ProofFormatError) {
        var fields = try JSONFields(json, path: path)
        position = try fields.number("position")
        let key = try fields.hash("key")
        let count = try fields.number("count")
        entry = UserIndexEntry(key: key, count: count, chainHash: try fields.hash("chain"))
        inclusion = try fields.hashes("inclusion")
        try fields.finish()
    }
}
