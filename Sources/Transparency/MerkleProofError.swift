/// A Merkle proof that cannot be made or does not hold: which check, and a sentence.
public struct MerkleProofError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which check failed.
    public enum Kind: String, Sendable {
        /// Sizes or indices that no proof can have (index ≥ size, old size > new size, ...).
        case invalidArguments
        /// The proof has more or fewer hashes than the sizes call for.
        case wrongLength
        /// The proof's hashes lead to another root than the one given.
        case rootMismatch
    }

    /// Which check failed.
    public var kind: Kind
    /// What failed, with the sizes and indices involved.
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
