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
    /// `{"entries":K,"siblings":["<base64>",...],"entry":E}` for a present user,
    /// `{"entries":K,"siblings":[...],"absent":E|null}` for an absent one, where E is
    /// `{"key":"<base64>","count":c,"chain":"<base64>"}`.
    public var json: JSONValue {
        let siblings = UserProof.hashList(self.siblings)
        switch membership {
        case .present(let entry):
            return .object([("entries", .number(entries)), ("siblings", siblings), ("entry", entry.json)])
        case .absent(let other):
            return .object([("entries", .number(entries)), ("siblings", siblings), ("absent", other?.json ?? .null)])
        }
    }

    init(json: JSONValue, path: String) throws(ProofFormatError) {
        var fields = try JSONFields(json, path: path)
        entries = try fields.number("entries")
        siblings = try fields.hashes("siblings", max: UserIndexTree.maxDepth)
        let entry = fields.optional("entry")
        let absent = fields.optional("absent")
        switch (entry, absent) {
        case (let entry?, nil):
            membership = .present(try UserIndexEntry(json: entry, path: fields.fieldPath("entry")))
        case (nil, let absent?):
            membership = .absent(absent == .null ? nil : try UserIndexEntry(json: absent, path: fields.fieldPath("absent")))
        default:
            throw ProofFormatError(field: path, "must have exactly one of entry and absent")
        }
        try fields.finish()
    }
}

extension UserIndexEntry {
    var json: JSONValue {
        .object([("key", .string(Base64.encode(key.bytes))), ("count", .number(count)), ("chain", .string(Base64.encode(chainHash.bytes)))])
    }

    init(json: JSONValue, path: String) throws(ProofFormatError) {
        var fields = try JSONFields(json, path: path)
        let key = try fields.hash("key")
        let count = try fields.number("count")
        self.init(key: key, count: count, chainHash: try fields.hash("chain"))
        try fields.finish()
    }
}
