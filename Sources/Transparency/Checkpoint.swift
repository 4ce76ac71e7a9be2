import Cryptography

/// A transparency-log checkpoint (C2SP tlog-checkpoint): the note text
/// `<origin>\n<size>\n<base64 root>\n` then optional extension lines, signed as a signed note.
///
/// This log adds one extension line, `user-smt <entries> <base64 root>`: the number of users and the root of
/// the per-user completeness index (`UserIndex`).
public struct Checkpoint: Sendable, Equatable {
    /// The log's identity, e.g. `example.com/ledger`.
    public var origin: String
    /// The number of leaves.
    public var size: UInt64
    /// The Merkle root of the first `size` leaves.
    public var root: SHA256.Digest
    /// The extension lines, in order, without newlines (the user-smt line among them).
    public var extensions: [String]

    /// The keyword of the user-smt extension line.
    public static let userIndexKeyword = "user-smt"

    /// A checkpoint; `userIndex` adds its extension line first among `extensions`.
    public init(origin: String, size: UInt64, root: SHA256.Digest, userIndex: UserIndexHead? = nil, extensions: [String] = []) {
        self.origin = origin
        self.size = size
        self.root = root
        self.extensions = (userIndex.map { [$0.extensionLine] } ?? []) + extensions
    }

    /// The note text: every line ended by a newline.
    public var text: String {
        ([origin, String(size), Base64.encode(root.bytes)] + extensions).map { $0 + "\n" }.joined()
    }

    /// Parses a checkpoint note text strictly: at least three lines, each non-empty and ended by
    /// a newline; a decimal size without leading zeros that fits 64 bits; a root that is strict
    /// base64 of 32 bytes; at most one well-formed user-smt line.
    public init(text: String) throws(CheckpointError) {
        guard text.hasSuffix("\n") else { throw CheckpointError(line: 0, "the text does not end with a newline") }
        let lines = text.utf8.split(separator: 0x0a, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        guard lines.count >= 3 else {
            throw CheckpointError(line: 0, "has \(lines.count) lines; origin, size and root hash are required")
        }
        for (i, line) in lines.enumerated() where line.isEmpty {
            throw CheckpointError(line: i + 1, "is empty")
        }
        origin = lines[0]
        guard let size = Self.parseSize(lines[1]) else {
            throw CheckpointError(line: 2, "tree size \(quoted(lines[1])) is not a decimal number without leading zeros below 2^64")
        }
        self.size = size
        guard let rootBytes = Base64.decode(lines[2]), rootBytes.count == 32 else {
            throw CheckpointError(line: 3, "root hash \(quoted(lines[2])) is not base64 of 32 bytes")
        }
        root = SHA256.Digest(bytes: rootBytes)
        extensions = Array(lines[3...])
        _ = try userIndexHead()
    }

    /// The signed note of this checkpoint by `signer`; refuses a checkpoint whose text would not
    /// parse back to it (an empty origin, a newline inside a line, a malformed user-smt line).
    public func signed(by signer: NoteSigner) throws -> String {
        let text = self.text
        guard try Checkpoint(text: text) == self else {
            throw CheckpointError(line: 0, "origin or an extension line holds a newline or is empty")
        }
        return try SignedNote.sign(text, by: signer)
    }

    /// The user-smt extension's size and root; nil when the checkpoint has no such line.
    public func userIndexHead() throws(CheckpointError) -> UserIndexHead? {
        var found: UserIndexHead?
        let keyword = Array((Self.userIndexKeyword + " ").utf8)
        for (i, line) in extensions.enumerated() where line.utf8.starts(with: keyword) {
            guard found == nil else { throw CheckpointError(line: i + 4, "a second user-smt line") }
            let fields = line.utf8.split(separator: 0x20, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 3, let entries = Self.parseSize(fields[1]),
                  let rootBytes = Base64.decode(fields[2]), rootBytes.count == 32 else {
                throw CheckpointError(line: i + 4, "user-smt line \(quoted(line)) is not `user-smt <entries> <base64 root>`")
            }
            found = UserIndexHead(entries: entries, root: SHA256.Digest(bytes: rootBytes))
        }
        return found
    }

    /// ASCII decimal digits, no leading zero (but "0"), no overflow.
    static func parseSize(_ text: some StringProtocol) -> UInt64? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count <= 20, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard digits[0] != 0x30 || digits.count == 1 else { return nil }
        var value: UInt64 = 0
        for d in digits {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d - 0x30))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }
}
