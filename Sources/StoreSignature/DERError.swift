/// Why DER input was refused: what was being read, the check that failed, and the byte offset
/// (from the start of the whole input). `description` is one line.
public struct DERError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failed check.
    public enum Kind: Sendable, Equatable {
        /// The input ends before the element (or its header) does.
        case truncated
        /// Length byte 0x80: BER's indefinite form, not allowed in DER.
        case indefiniteLength
        /// A long-form length with a leading zero byte, or below 128 (short form required).
        case nonMinimalLength
        /// A length of more than four bytes (or beyond the reader's size limit).
        case lengthTooLarge(lengthBytes: Int)
        /// The length runs past the end of the enclosing element or input.
        case lengthPastEnd(length: Int, available: Int)
        /// Bytes remain after the last expected element.
        case trailingBytes(count: Int)
        /// Another tag than the expected one.
        case unexpectedTag(found: UInt8, expected: UInt8)
        /// A tag in the high-tag-number form (low five bits all set), never used by X.509.
        case highTagNumber
        /// Nesting deeper than the reader's limit.
        case tooDeep(limit: Int)
        /// The input is larger than the reader's limit.
        case inputTooLarge(size: Int, limit: Int)
        /// The content violates DER or the schema (non-minimal integer, bad time, …).
        case invalidContent(String)
        /// A well-formed value this reader does not support (algorithm, curve, version, …).
        case unsupported(String)
    }

    /// The failed check.
    public let kind: Kind
    /// What was being read, e.g. "validity notBefore".
    public let field: String
    /// Byte offset in the whole input.
    public let offset: Int

    /// An error of `kind` while reading `field` at byte `offset`.
    public init(_ kind: Kind, field: String, offset: Int) {
        self.kind = kind
        self.field = field
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch kind {
        case .truncated: what = "input ends inside \(field)"
        case .indefiniteLength: what = "\(field) has an indefinite length (BER, not DER)"
        case .nonMinimalLength: what = "\(field) has a non-minimal length encoding"
        case let .lengthTooLarge(n): what = "\(field) has a \(n)-byte length, beyond the limit"
        case let .lengthPastEnd(length, available): what = "\(field) length \(length) runs past the end (\(available) bytes left)"
        case let .trailingBytes(count): what = "\(count) trailing bytes after \(field)"
        case let .unexpectedTag(found, expected): what = "expected \(field) (tag 0x\(Self.hex(expected))), found tag 0x\(Self.hex(found))"
        case .highTagNumber: what = "\(field) uses a multi-byte tag"
        case let .tooDeep(limit): what = "\(field) nests deeper than \(limit) levels"
        case let .inputTooLarge(size, limit): what = "\(field) is \(size) bytes, over the \(limit)-byte limit"
        case let .invalidContent(reason): what = "\(field) \(reason)"
        case let .unsupported(reason): what = "\(field): \(reason)"
        }
        return "DER: \(what) at offset \(offset)"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
