/// Strict base64 (RFC 4648 §4) and base64url (§5) decoding: only alphabet characters (no
/// whitespace), padding exactly as the form requires, and zero bits in the last character's
/// unused low bits, so every byte string has one accepted encoding.
public enum Base64 {
    /// Why text was refused.
    public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The failed check.
        public let reason: String
        /// Character offset in the text.
        public let offset: Int
        public var description: String { "base64: \(reason) at offset \(offset)" }
    }

    /// Standard alphabet (`+`, `/`) with `=` padding to a multiple of four characters — x5c entries, PEM bodies.
    public static func decode(_ text: some StringProtocol) throws(DecodingError) -> [UInt8] {
        try decode(Array(text.utf8), urlAlphabet: false)
    }

    /// URL alphabet (`-`, `_`) without padding — JWS segments (RFC 7515 §2).
    public static func decodeURL(_ text: some StringProtocol) throws(DecodingError) -> [UInt8] {
        try decode(Array(text.utf8), urlAlphabet: true)
    }

    /// Decodes ASCII bytes in either form.
    public static func decode(_ text: [UInt8], urlAlphabet: Bool) throws(DecodingError) -> [UInt8] {
        var length = text.count
        if urlAlphabet {
            guard length % 4 != 1 else { throw DecodingError(reason: "length \(length) leaves a lone character", offset: length - 1) }
        } else {
            guard length % 4 == 0 else { throw DecodingError(reason: "length \(length) is not a multiple of 4", offset: length) }
            if length > 0, text[length - 1] == UInt8(ascii: "=") {
                length -= 1
                if text[length - 1] == UInt8(ascii: "=") { length -= 1 }
            }
        }
        let table = urlAlphabet ? urlTable : standardTable
        var out = [UInt8]()
        out.reserveCapacity(length * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var invalidAt: Int?
        text.withUnsafeBufferPointer { characters in
            var i = 0
            while i < length {
                let value = table[Int(characters[i])]
                if value == 0xff { invalidAt = i; return }
                i += 1
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
        }
        if let i = invalidAt {
            let c = text[i]
            let shown = c >= 0x20 && c < 0x7f ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
            throw DecodingError(reason: "\(shown) is not in the \(urlAlphabet ? "base64url" : "base64") alphabet", offset: i)
        }
        guard accumulator == 0 else { throw DecodingError(reason: "the last character has nonzero unused bits", offset: length - 1) }
        return out
    }

    /// Sextet values by ASCII code, 0xFF for characters outside the alphabet.
    private static let standardTable: [UInt8] = (0..<256).map { sextet(UInt8($0), urlAlphabet: false) ?? 0xff }
    private static let urlTable: [UInt8] = (0..<256).map { sextet(UInt8($0), urlAlphabet: true) ?? 0xff }

    private static func sextet(_ c: UInt8, urlAlphabet: Bool) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where !urlAlphabet: 62
        case UInt8(ascii: "/") where !urlAlphabet: 63
        case UInt8(ascii: "-") where urlAlphabet: 62
        case UInt8(ascii: "_") where urlAlphabet: 63
        default: nil
        }
    }
}
