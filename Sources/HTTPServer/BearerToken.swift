/// Reads the token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1).
public enum BearerToken {
    /// The token, or nil when the header is absent, names another scheme (the scheme's case is
    /// ignored), or the token is empty or has bytes outside b64token
    /// (`ALPHA / DIGIT / - . _ ~ + /` then any `=`).
    public static func extract(from authorization: String?) -> String? {
        guard let authorization else { return nil }
        let bytes = Array(authorization.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count + 1,
              zip(bytes, scheme).allSatisfy({ ByteClass.lower($0) == $1 }),
              bytes[scheme.count] == UInt8(ascii: " ") else { return nil }
        var start = scheme.count
        while start < bytes.count && bytes[start] == UInt8(ascii: " ") { start += 1 }
        let token = bytes[start...]
        guard let first = token.first, first != UInt8(ascii: "=") else { return nil }
        var seenPadding = false
        for byte in token {
            if byte == UInt8(ascii: "=") { seenPadding = true; continue }
            guard !seenPadding, isTokenByte(byte) else { return nil }
        }
        return String(decoding: token, as: UTF8.self)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"): return true
        default: return false
        }
    }
}
