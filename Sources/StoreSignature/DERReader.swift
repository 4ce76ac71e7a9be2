/// A strict, bounded reader of DER (X.690 §10): single-byte tags, definite lengths in their
/// minimal encoding (at most four length bytes), every length inside its parent, nesting at most
/// `maximumDepth` levels, whole input at most `maximumSize` bytes, and `finish()` refuses any
/// bytes left over. Elements share the input array; offsets in errors are from its start.
public struct DERReader: Sendable {
    /// Default bound on the input size (Apple's certificates are about 1 KiB).
    public static let defaultMaximumSize = 64 * 1024
    /// Default bound on nesting (an X.509 certificate needs about 7).
    public static let defaultMaximumDepth = 16

    let bytes: [UInt8]
    /// Next byte to read.
    public private(set) var offset: Int
    /// One past the last byte this reader may read.
    public let end: Int
    /// Nesting level of the elements this reader yields (0 for the top level).
    public let depth: Int
    let maximumDepth: Int
    /// Names the enclosing element in errors.
    let context: String

    /// A reader over all of `bytes`, refusing input larger than `maximumSize`.
    public init(_ bytes: [UInt8], maximumSize: Int = DERReader.defaultMaximumSize,
                maximumDepth: Int = DERReader.defaultMaximumDepth, context: String = "input") throws(DERError) {
        guard bytes.count <= maximumSize else {
            throw DERError(.inputTooLarge(size: bytes.count, limit: maximumSize), field: context, offset: 0)
        }
        self.init(bytes: bytes, offset: 0, end: bytes.count, depth: 0, maximumDepth: maximumDepth, context: context)
    }

    init(bytes: [UInt8], offset: Int, end: Int, depth: Int, maximumDepth: Int, context: String) {
        self.bytes = bytes
        self.offset = offset
        self.end = end
        self.depth = depth
        self.maximumDepth = maximumDepth
        self.context = context
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= end }

    /// The tag of the next element, without reading it (nil at the end).
    public var nextTag: UInt8? { offset < end ? bytes[offset] : nil }

    /// Reads the next element of any tag; `field` names it in errors.
    public mutating func read(_ field: String) throws(DERError) -> DERElement {
        let start = offset
        guard offset < end else { throw DERError(.truncated, field: field, offset: offset) }
        let tag = bytes[offset]
        guard tag & 0x1f != 0x1f else { throw DERError(.highTagNumber, field: field, offset: offset) }
        var cursor = offset + 1
        guard cursor < end else { throw DERError(.truncated, field: field, offset: cursor) }
        let first = bytes[cursor]
        cursor += 1
        var length = Int(first)
        if first == 0x80 {
            throw DERError(.indefiniteLength, field: field, offset: cursor - 1)
        } else if first > 0x80 {
            let count = Int(first & 0x7f)
            guard count <= 4 else { throw DERError(.lengthTooLarge(lengthBytes: count), field: field, offset: cursor - 1) }
            guard count <= end - cursor else { throw DERError(.truncated, field: field, offset: cursor) }
            guard bytes[cursor] != 0 else { throw DERError(.nonMinimalLength, field: field, offset: cursor - 1) }
            length = 0
            for i in 0..<count { length = length << 8 | Int(bytes[cursor + i]) }
            guard length >= 0x80 else { throw DERError(.nonMinimalLength, field: field, offset: cursor - 1) }
            cursor += count
        }
        guard length <= end - cursor else {
            throw DERError(.lengthPastEnd(length: length, available: end - cursor), field: field, offset: start)
        }
        offset = cursor + length
        return DERElement(bytes: bytes, tag: tag, start: start, contentStart: cursor, end: cursor + length,
                          depth: depth, maximumDepth: maximumDepth, field: field)
    }

    /// Reads the next element and requires its tag to be `tag`.
    public mutating func read(_ tag: UInt8, _ field: String) throws(DERError) -> DERElement {
        if let next = nextTag, next != tag {
            throw DERError(.unexpectedTag(found: next, expected: tag), field: field, offset: offset)
        }
        return try read(field)
    }

    /// Reads the next element if its tag is `tag`; otherwise reads nothing and returns nil.
    public mutating func readIfPresent(_ tag: UInt8, _ field: String) throws(DERError) -> DERElement? {
        guard nextTag == tag else { return nil }
        return try read(field)
    }

    /// Requires that nothing is left to read.
    public func finish() throws(DERError) {
        guard offset >= end else { throw DERError(.trailingBytes(count: end - offset), field: context, offset: offset) }
    }

    /// Reads exactly one element spanning all of `bytes` (nothing before or after it).
    public static func single(_ bytes: [UInt8], _ field: String, maximumSize: Int = defaultMaximumSize) throws(DERError) -> DERElement {
        var reader = try DERReader(bytes, maximumSize: maximumSize, context: field)
        let element = try reader.read(field)
        try reader.finish()
        return element
    }
}
