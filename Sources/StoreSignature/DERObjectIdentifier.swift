/// An ASN.1 OBJECT IDENTIFIER, held as its DER content bytes (so comparison is byte equality).
public struct DERObjectIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The content octets (base-128 subidentifiers, first two arcs combined).
    public let encoded: [UInt8]

    /// From validated content octets.
    init(validated encoded: [UInt8]) { self.encoded = encoded }

    /// From content octets, checked: nonempty, minimal base-128 groups, last group terminated,
    /// each subidentifier within 64 bits.
    public init(content: ArraySlice<UInt8>) throws(DERError) {
        guard !content.isEmpty else { throw DERError(.invalidContent("is an empty OBJECT IDENTIFIER"), field: "OBJECT IDENTIFIER", offset: 0) }
        var groupStart = true
        var bitsInGroup = 0
        for (i, byte) in zip(content.indices, content) {
            if groupStart && byte == 0x80 {
                throw DERError(.invalidContent("has a non-minimal subidentifier"), field: "OBJECT IDENTIFIER", offset: i)
            }
            bitsInGroup += 7
            if bitsInGroup > 63 {
                throw DERError(.invalidContent("has a subidentifier beyond 63 bits"), field: "OBJECT IDENTIFIER", offset: i)
            }
            groupStart = byte & 0x80 == 0
            if groupStart { bitsInGroup = 0 }
        }
        guard groupStart, let last = content.last, last & 0x80 == 0 else {
            throw DERError(.invalidContent("ends inside a subidentifier"), field: "OBJECT IDENTIFIER", offset: content.endIndex)
        }
        encoded = Array(content)
    }

    /// From dotted text such as "1.2.840.113635.100.6.11.1"; nil unless it has at least two arcs,
    /// the first 0…2 (the second below 40 unless the first is 2).
    public init?(_ dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map { UInt64($0) }
        guard parts.count >= 2, let first = parts[0], let second = parts[1], first <= 2,
              first == 2 || second < 40 else { return nil }
        let (combined, overflow) = (first * 40).addingReportingOverflow(second)
        guard !overflow else { return nil }
        var out = Self.base128(combined)
        for part in parts.dropFirst(2) {
            guard let part else { return nil }
            out += Self.base128(part)
        }
        encoded = out
    }

    private static func base128(_ value: UInt64) -> [UInt8] {
        var groups: [UInt8] = [UInt8(value & 0x7f)]
        var rest = value >> 7
        while rest > 0 {
            groups.insert(UInt8(rest & 0x7f) | 0x80, at: 0)
            rest >>= 7
        }
        return groups
    }

    /// The arcs, e.g. [1, 2, 840, 113635, 100, 6, 11, 1].
    public var arcs: [UInt64] {
        var values = [UInt64]()
        var current: UInt64 = 0
        for byte in encoded {
            current = current << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 {
                values.append(current)
                current = 0
            }
        }
        guard let first = values.first else { return [] }
        let head: [UInt64] = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        return head + values.dropFirst()
    }

    /// Dotted decimal text.
    public var description: String { arcs.map(String.init).joined(separator: ".") }
}

extension DERObjectIdentifier {
    /// id-ecPublicKey (RFC 5480).
    static let ecPublicKey = DERObjectIdentifier(validated: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01])
    /// prime256v1 / secp256r1.
    static let prime256v1 = DERObjectIdentifier(validated: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07])
    /// secp384r1.
    static let secp384r1 = DERObjectIdentifier(validated: [0x2b, 0x81, 0x04, 0x00, 0x22])
    /// ecdsa-with-SHA256 (RFC 5758).
    static let ecdsaWithSHA256 = DERObjectIdentifier(validated: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02])
    /// ecdsa-with-SHA384 (RFC 5758).
    static let ecdsaWithSHA384 = DERObjectIdentifier(validated: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03])
    /// id-ce-basicConstraints 2.5.29.19.
    static let basicConstraints = DERObjectIdentifier(validated: [0x55, 0x1d, 0x13])
    /// id-ce-keyUsage 2.5.29.15.
    static let keyUsage = DERObjectIdentifier(validated: [0x55, 0x1d, 0x0f])
}
