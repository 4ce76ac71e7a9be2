/// The first check a proof failed: which check, which record if any, and a sentence.
public struct ProofCheckFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checks, in the order `ProofChecker` makes them.
    public enum Check: String, Sendable {
        /// The verifier key text.
        case verifierKey = "verifier key"
        /// The proof or checkpoint document itself (JSON, fields).
        case format
        /// The checkpoint's signature by the verifier key.
        case signature
        /// The checkpoint's text (C2SP tlog-checkpoint).
        case checkpoint
        /// The proof is for another checkpoint than the one expected, or another size.
        case checkpointMismatch = "checkpoint mismatch"
        /// Record indices not strictly increasing or not below the tree size.
        case recordOrder = "record order"
        /// A record's line does not belong to the proof's user.
        case recordUser = "record user"
        /// A record's inclusion proof.
        case inclusion
        /// The records' count or chain against the user's index entry.
        case completeness
        /// The user index entry or absence proof.
        case userIndex = "user index"
        /// The consistency proof between two checkpoints.
        case consistency
    }

    /// Which check failed.
    public var check: Check
    /// The 0-based position of the record in the proof's list, when the failure is about one.
    public var record: Int?
    /// What failed, in a sentence.
    public var message: String

    /// A failure of `check` (about `record`, if one) saying `message`.
    public init(_ check: Check, record: Int? = nil, _ message: String) {
        self.check = check
        self.record = record
        self.message = message
    }

    /// One line: `<check>: [record N: ]<message>`.
    public var description: String {
        "\(check.rawValue): " + (record.map { "record \($0): " } ?? "") + message
    }
}
