extension DERElement {
    /// An INTEGER's content, checked minimal (no superfluous leading 0x00 or 0xFF byte); two's complement.
    public func integerBytes() throws(DERError) -> ArraySlice<UInt8> {
        try expect(Tag.integer)
        let c = content
        guard let first = c.first else { throw invalid("is an INTEGER with no content") }
        if c.count > 1 {
            let second = c[c.startIndex + 1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xff && second & 0x80 != 0) {
                throw invalid("is an INTEGER with a non-minimal encoding")
            }
        }
        return c
    }

    /// A small non-negative INTEGER (at most 31 bits), e.g. a version or a path length.
    public func smallInteger() throws(DERError) -> Int {
        let c = try integerBytes()
        guard let first = c.first, first & 0x80 == 0 else { throw invalid("is a negative INTEGER where a count belongs") }
        guard c.count <= 4 else { throw invalid("is an INTEGER too large for a count") }
        return c.reduce(0) { $0 << 8 | Int($1) }
    }

    /// A BOOLEAN: DER allows only 0x00 and 0xFF.
    public func boolean() throws(DERError) -> Bool {
        try expect(Tag.boolean)
        guard content.count == 1, let value = content.first else { throw invalid("is a BOOLEAN not one byte long") }
        switch value {
        case 0x00: return false
        case 0xff: return true
        default: throw invalid("is a BOOLEAN other than 0x00 or 0xFF")
        }
    }

    /// An OBJECT IDENTIFIER.
    public func objectIdentifier() throws(DERError) -> DERObjectIdentifier {
        try expect(Tag.objectIdentifier)
        do {
            return try DERObjectIdentifier(content: content)
        } catch {
            throw DERError(error.kind, field: field, offset: contentStart)
        }
    }

    /// A BIT STRING's bits (the count of unused bits in the last byte, and the bytes), DER-checked:
    /// unused bits 0…7, none when empty, and the unused bits zero.
    public func bitString() throws(DERError) -> (unusedBits: Int, bytes: ArraySlice<UInt8>) {
        try expect(Tag.bitString)
        guard let unused = content.first else { throw invalid("is a BIT STRING with no content") }
        let data = content.dropFirst()
        guard unused <= 7 else { throw invalid("is a BIT STRING with \(unused) unused bits") }
        if data.isEmpty {
            guard unused == 0 else { throw invalid("is an empty BIT STRING claiming unused bits") }
        } else if let last = data.last, unused > 0, last & UInt8((1 << Int(unused)) - 1) != 0 {
            throw invalid("is a BIT STRING whose unused bits are not zero")
        }
        return (Int(unused), data)
    }

    /// A BIT STRING holding whole bytes (keys, signatures).
    public func octetAlignedBitString() throws(DERError) -> [UInt8] {
        let (unused, data) = try bitString()
        guard unused == 0 else { throw invalid("is a BIT STRING with unused bits where whole bytes belong") }
        return Array(data)
    }

    /// An OCTET STRING's content.
    public func octetString() throws(DERError) -> ArraySlice<UInt8> {
        try expect(Tag.octetString)
        return content
    }

    /// A NULL (empty content).
    public func null() throws(DERError) {
        try expect(Tag.null)
        guard content.isEmpty else { throw invalid("is a NULL with content") }
    }

    /// A UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049) or GeneralizedTime (`YYYYMMDDHHMMSSZ`) as
    /// milliseconds since 1970 UTC — the two forms RFC 5280 §4.1.2.5 allows (seconds, Zulu, no fraction).
    public func time() throws(DERError) -> Int64 {
        let digits: ArraySlice<UInt8>
        var year: Int
        switch tag {
        case Tag.utcTime:
            guard content.count == 13 else { throw invalid("is a UTCTime not of the form YYMMDDHHMMSSZ") }
            digits = content.dropLast()
            guard let yy = Self.number(digits.prefix(2)) else { throw invalid("is a UTCTime with a non-digit") }
            year = yy < 50 ? 2000 + yy : 1900 + yy
        case Tag.generalizedTime:
            guard content.count == 15 else { throw invalid("is a GeneralizedTime not of the form YYYYMMDDHHMMSSZ") }
            digits = content.dropLast()
            guard let yyyy = Self.number(digits.prefix(4)) else { throw invalid("is a GeneralizedTime with a non-digit") }
            year = yyyy
        default:
            throw DERError(.unexpectedTag(found: tag, expected: Tag.utcTime), field: field, offset: start)
        }
        guard content.last == UInt8(ascii: "Z") else { throw invalid("is a time not ending in Z") }
        let rest = digits.suffix(10)
        guard let month = Self.number(rest.prefix(2)), let day = Self.number(rest.dropFirst(2).prefix(2)),
              let hour = Self.number(rest.dropFirst(4).prefix(2)), let minute = Self.number(rest.dropFirst(6).prefix(2)),
              let second = Self.number(rest.dropFirst(8).prefix(2)) else { throw invalid("is a time with a non-digit") }
        guard (1...12).contains(month), (1...UTCTimestamp.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second < 60 else { throw invalid("is a time with a field out of range") }
        let days = UTCTimestamp.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return seconds * 1000
    }

    /// The decimal value of ASCII digits, or nil on any other byte.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for d in digits {
            guard d >= 0x30, d <= 0x39 else { return nil }
            value = value * 10 + Int(d - 0x30)
        }
        return value
    }

    func expect(_ expected: UInt8) throws(DERError) {
        guard tag == expected else { throw DERError(.unexpectedTag(found: tag, expected: expected), field: field, offset: start) }
    }
}
