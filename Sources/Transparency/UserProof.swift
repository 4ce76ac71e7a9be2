import Cryptography

/// What `prove` hands an auditor for one user: the signed checkpoint, the user's records with
/// their inclusion proofs, and the completeness proof from the user index.
///
/// JSON (`UserProof+JSON.swift`):
/// `{"checkpoint":"<signed note>","size":N,"user":U,"records":[{"index":i,"line":"<export line>",
/// "inclusion":["<base64>",...]}],"completeness":{...}}`.
public struct UserProof: Sendable, Equatable {
    /// One record of the user: its leaf index, its export line (the leaf data is the line's
    /// UTF-8 bytes) and its inclusion proof in the checkpoint's tree.
    public struct Record: Sendable, Equatable {
        /// The record's leaf index in the log (0-based).
        public var index: UInt64
        /// The export line; its UTF-8 bytes are the leaf data.
        public var line: String
        /// The inclusion proof (RFC 9162 audit path) at the checkpoint's size.
        public var inclusion: [SHA256.Digest]

        /// A record at `index` with `line` and its `inclusion` proof.
        public init(index: UInt64, line: String, inclusion: [SHA256.Digest]) {
            self.index = index
            self.line = line
            self.inclusion = inclusion
        }

        /// Equal when index, line bytes and proof are.
        public static func == (a: Record, b: Record) -> Bool {
            a.index == b.index && a.line.utf8.elementsEqual(b.line.utf8) && a.inclusion == b.inclusion
        }
    }

    /// The signed checkpoint note, verbatim.
    public var checkpoint: String
    /// The tree size the proofs are for (the checkpoint's).
    public var size: UInt64
    /// The user id.
    public var user: String
    /// The user's records in log order.
    public var records: [Record]
    /// The user's index entry, or the proof that the user has none.
    public var completeness: UserIndexProof

    /// A proof from its parts.
    public init(checkpoint: String, size: UInt64, user: String, records: [Record], completeness: UserIndexProof) {
        self.checkpoint = checkpoint
        self.size = size
        self.user = user
        self.records = records
        self.completeness = completeness
    }

    /// Equal part by part; texts compare byte for byte.
    public static func == (a: UserProof, b: UserProof) -> Bool {
        a.checkpoint.utf8.elementsEqual(b.checkpoint.utf8) && a.size == b.size && a.user.utf8.elementsEqual(b.user.utf8)
            && a.records == b.records && a.completeness == b.completeness
    }

    /// Builds the proof for `user` at tree size `size`: each record's inclusion proof read from
    /// `log` (O(log size) reads each) and the completeness proof from `index`.
    public init(checkpoint: String, size: UInt64, user: String, records: [(index: UInt64, line: String)],
                log: some StoredHashes, index: UserIndex) throws {
        var proved: [Record] = []
        proved.reserveCapacity(records.count)
        for record in records {
            proved.append(Record(index: record.index, line: record.line,
                                 inclusion: try MerkleTree.inclusionProof(index: record.index, size: size, hashes: log)))
        }
        self.init(checkpoint: checkpoint, size: size, user: user, records: proved, completeness: try index.proof(user: user))
    }
}
