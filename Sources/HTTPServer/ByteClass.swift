/// The byte classes of RFC 9110/9112 and RFC 3986 that the parser checks against, as one table.
enum ByteClass {
    /// tchar: the bytes of a method or a header name.
    static let token: UInt8 = 1
    /// The bytes allowed in an origin-form request target (RFC 3986 pchar, "/", "?", and "%").
    static let target: UInt8 = 2
    /// The bytes allowed in a field value: VCHAR, obs-text, SP, HTAB.
    static let fieldValue: UInt8 = 4
    /// HEXDIG.
    static let hex: UInt8 = 8

    private static let table: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        let tokenPunctuation = Array("!#$%&'*+-.^_`|~".utf8)
        let targetPunctuation = Array("-._~!$&'()*+,;=:@/?%".utf8)
        for b in 0..<256 {
            let byte = UInt8(b)
            let alpha = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            let digit = byte >= 0x30 && byte <= 0x39
            var flags: UInt8 = 0
            if alpha || digit || tokenPunctuation.contains(byte) { flags |= token }
            if alpha || digit || targetPunctuation.contains(byte) { flags |= target }
            if byte == 0x20 || byte == 0x09 || (byte >= 0x21 && byte != 0x7F) { flags |= fieldValue }
            if digit || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66) { flags |= hex }
            t[b] = flags
        }
        return t
    }()

    /// True when `byte` is in `kind`.
    @inline(__always)
    static func test(_ byte: UInt8, _ kind: UInt8) -> Bool { table[Int(byte)] & kind != 0 }

    /// The value of a hex digit (the caller checked `hex`).
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        default: return byte &- 0x61 &+ 10
        }
    }

    /// SP or HTAB.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// ASCII lower case of `byte` (other bytes unchanged).
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
