/// One DER element: its tag and where its header and content lie in the shared input.
public struct DERElement: Sendable {
    /// Universal and context tags X.509 uses.
    public enum Tag {
        /// BOOLEAN.
        public static let boolean: UInt8 = 0x01
        /// INTEGER.
        public static let integer: UInt8 = 0x02
        /// BIT STRING.
        public static let bitString: UInt8 = 0x03
        /// OCTET STRING.
        public static let octetString: UInt8 = 0x04
        /// NULL.
        public static let null: UInt8 = 0x05
        /// OBJECT IDENTIFIER.
        public static let objectIdentifier: UInt8 = 0x06
        /// UTCTime.
        public static let utcTime: UInt8 = 0x17
        /// GeneralizedTime.
        public static let generalizedTime: UInt8 = 0x18
        /// SEQUENCE (constructed).
        public static let sequence: UInt8 = 0x30
        /// SET (constructed).
        public static let set: UInt8 = 0x31
        /// `[n]` constructed, context-specific (EXPLICIT tagging).
        public static func contextConstructed(_ n: UInt8) -> UInt8 { 0xa0 | n }
        /// `[n]` primitive, context-specific (IMPLICIT tagging of a primitive type).
        public static func contextPrimitive(_ n: UInt8) -> UInt8 { 0x80 | n }
    }

    let bytes: [UInt8]
    /// The identifier octet.
    public let tag: UInt8
    /// Offset of the tag byte.
    public let start: Int
    /// Offset of the first content byte.
    public let contentStart: Int
    /// One past the last content byte.
    public let end: Int
    let depth: Int
    let maximumDepth: Int
    /// What this element is, for errors.
    public let field: String

    /// Whether the constructed bit (0x20) is set.
    public var isConstructed: Bool { tag & 0x20 != 0 }

    /// The content bytes.
    public var content: ArraySlice<UInt8> { bytes[contentStart..<end] }

    /// The whole encoding, header included (e.g. a certificate's tbsCertificate, a raw Name).
    public var encoded: ArraySlice<UInt8> { bytes[start..<end] }

    /// A reader over the content of a constructed element, one level deeper.
    public func children() throws(DERError) -> DERReader {
        guard isConstructed else { throw DERError(.invalidContent("is primitive where a constructed element belongs"), field: field, offset: start) }
        guard depth + 1 <= maximumDepth else { throw DERError(.tooDeep(limit: maximumDepth), field: field, offset: start) }
        return DERReader(bytes: bytes, offset: contentStart, end: end, depth: depth + 1, maximumDepth: maximumDepth, context: field)
    }

    func invalid(_ reason: String) -> DERError { DERError(.invalidContent(reason), field: field, offset: contentStart) }
}
