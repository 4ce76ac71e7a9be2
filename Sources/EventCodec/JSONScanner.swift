import SubscriptionDomain
/// A small, strict JSON scanner over UTF-8 bytes, for the replay hot path (no Foundation).
struct JSONScanner {
    let bytes: UnsafeRawBufferPointer
    var i = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// A scanned string: its byte range inside the quotes; escapes are decoded only when asked.
    struct Token {
        var range: Range<Int>
        /// The string holds a backslash escape (its bytes are not the text).
        var escaped: Bool
        /// Every byte is ASCII (no UTF-8 check needed).
        var ascii: Bool
    }

    func error(_ reason: String) -> EventDecodingError { EventDecodingError(reason, column: i + 1) }

    @inline(__always) mutating func skipWhitespace() {
        while i < bytes.count {
            let c = bytes[i]
            if c > 0x20 { return }
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    @inline(__always) mutating func peek() -> UInt8? {
        if i < bytes.count, bytes[i] > 0x20 { return bytes[i] }
        skipWhitespace()
        return i < bytes.count ? bytes[i] : nil
    }

    /// Consumes `c` (after optional whitespace) or throws "expected `what`".
    @inline(__always) mutating func expect(_ c: UInt8, _ what: StaticString) throws(EventDecodingError) {
        if i < bytes.count, bytes[i] == c { i += 1; return }
        try expectSlow(c, what)
    }

    @inline(never) private mutating func expectSlow(_ c: UInt8, _ what: StaticString) throws(EventDecodingError) {
        guard peek() == c else {
            throw error(i < bytes.count ? "expected \(what)" : "unexpected end of line, expected \(what)")
        }
        i += 1
    }

    /// Scans a string (the opening quote is next). Eight bytes at a time while none of them is a
    /// quote, a backslash or a control byte; the high bits seen are or-ed in a register (ASCII test).
    /// Escapes are checked here and decoded later, only if the text is wanted.
    @inline(__always) mutating func string() throws(EventDecodingError) -> Token {
        try expect(0x22, "a string")
        let start = i
        let n = bytes.count
        let base = bytes.baseAddress!
        var high: UInt64 = 0
        while i + 8 <= n {
            let w = (base + i).loadUnaligned(as: UInt64.self)
            let special = Self.zeroByte(w ^ 0x2222_2222_2222_2222) | Self.zeroByte(w ^ 0x5C5C_5C5C_5C5C_5C5C)
                | ((w &- 0x2020_2020_2020_2020) & ~w & 0x8080_8080_8080_8080)
            if special != 0 {
                // Skip the ordinary bytes before the first special one (little-endian: lowest set bit).
                let skip = special.trailingZeroBitCount >> 3
                if skip > 0 {
                    high |= w & (UInt64.max >> UInt64(64 - skip * 8))
                    i += skip
                }
                break
            }
            high |= w
            i += 8
        }
        while i < n {
            let c = base.load(fromByteOffset: i, as: UInt8.self)
            if c == 0x22 {
                i += 1
                return Token(range: start..<(i - 1), escaped: false, ascii: high & 0x8080_8080_8080_8080 == 0)
            }
            if c == 0x5C { return try escapedString(from: start) }
            if c < 0x20 { throw error("control character inside a string") }
            high |= UInt64(c)
            i += 1
        }
        throw error("unterminated string")
    }

    /// A string that is one of `table`'s tags, matched in place without a scan; nil (nothing
    /// consumed) when the next value is not a plain string holding a tag.
    @inline(__always) mutating func tag(in table: TagTable) -> Int? {
        guard i < bytes.count, bytes[i] == 0x22,
              let (index, length) = table.quotedPrefix(of: UnsafeRawBufferPointer(rebasing: bytes[(i + 1)...])) else { return nil }
        i += length + 2
        return index
    }

    /// Non-zero if some byte of `v` is zero (the classic bit trick, exact for detection).
    @inline(__always) static func zeroByte(_ v: UInt64) -> UInt64 {
        (v &- 0x0101_0101_0101_0101) & ~v & 0x8080_8080_8080_8080
    }

    /// Finishes a string that holds escapes, checking each one; returns its token.
    private mutating func escapedString(from start: Int) throws(EventDecodingError) -> Token {
        var out: [UInt8] = []
        let end = try unescape(from: start, into: &out)
        return Token(range: start..<end, escaped: true, ascii: false)
    }

    /// Decodes the escapes of the string whose text starts at `start` into `out`; returns where the text ends.
    private mutating func unescape(from start: Int, into out: inout [UInt8]) throws(EventDecodingError) -> Int {
        i = start
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x22 { i += 1; return i - 1 }
            if c < 0x20 { throw error("control character inside a string") }
            if c != 0x5C { out.append(c); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else { throw error("unpaired surrogate in \\u escape") }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                i -= 1
                throw error("invalid escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
        throw error("unterminated string")
    }

    /// The text of an escaped token, decoded (the token was checked when scanned).
    func decoded(_ t: Token) -> [UInt8] {
        var copy = self
        var out: [UInt8] = []
        out.reserveCapacity(t.range.count)
        _ = try? copy.unescape(from: t.range.lowerBound, into: &out)
        return out
    }

    private mutating func hex4() throws(EventDecodingError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw error("bad hex digit in \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    /// The token as a Swift string, refusing invalid UTF-8.
    func text(_ t: Token) throws(EventDecodingError) -> String {
        if !t.escaped {
            let slice = UnsafeRawBufferPointer(rebasing: bytes[t.range])
            if t.ascii { return String(decoding: slice, as: UTF8.self) }
            guard let s = String(validating: slice, as: UTF8.self) else { throw EventDecodingError("invalid UTF-8 in a string", column: t.range.lowerBound + 1) }
            return s
        }
        guard let s = String(validating: decoded(t), as: UTF8.self) else { throw EventDecodingError("invalid UTF-8 in a string", column: t.range.lowerBound + 1) }
        return s
    }

    /// Runs `body` over the token's text bytes.
    @inline(__always) func withBytes<T>(_ t: Token, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        if !t.escaped { return body(UnsafeRawBufferPointer(rebasing: bytes[t.range])) }
        return decoded(t).withUnsafeBytes(body)
    }

    /// Skips one value, checking that it is well-formed JSON; returns its byte range.
    @discardableResult
    mutating func skipValue(depth: Int = 0) throws(EventDecodingError) -> Range<Int> {
        guard depth < 64 else { throw error("nesting deeper than 64 levels") }
        guard let c = peek() else { throw error("unexpected end of line, expected a value") }
        let start = i
        switch c {
        case 0x22:
            _ = try string()
        case 0x7B:
            i += 1
            if peek() == 0x7D { i += 1; break }
            while true {
                _ = try string()
                try expect(0x3A, "':'")
                try skipValue(depth: depth + 1)
                if peek() == 0x2C { i += 1; continue }
                try expect(0x7D, "',' or '}'")
                break
            }
        case 0x5B:
            i += 1
            if peek() == 0x5D { i += 1; break }
            while true {
                try skipValue(depth: depth + 1)
                if peek() == 0x2C { i += 1; continue }
                try expect(0x5D, "',' or ']'")
                break
            }
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        case 0x2D, 0x30...0x39: _ = try number()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(c)))', expected a value")
        }
        return start..<i
    }

    mutating func literal(_ word: StaticString) throws(EventDecodingError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count,
              UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)]).elementsEqual(UnsafeRawBufferPointer(start: word.utf8Start, count: n))
        else { throw error("invalid literal, expected \(word)") }
        i += n
    }

    /// Scans a JSON number; returns its value if it is an integer that fits, else nil.
    mutating func number() throws(EventDecodingError) -> Int? {
        skipWhitespace()
        let start = i
        var negative = false
        if i < bytes.count && bytes[i] == 0x2D { negative = true; i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw error("invalid number") }
        var value = 0
        var overflow = false
        if bytes[i] == 0x30 {
            i += 1
        } else {
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int(bytes[i] - 0x30))
                value = a
                overflow = overflow || o1 || o2
                i += 1
            }
        }
        var integer = true
        if i < bytes.count && bytes[i] == 0x2E {
            integer = false
            i += 1
            guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw error("invalid number: digits expected after '.'") }
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        }
        if i < bytes.count && (bytes[i] == 0x65 || bytes[i] == 0x45) {
            integer = false
            i += 1
            if i < bytes.count && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
            guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw error("invalid number: digits expected in exponent") }
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        }
        _ = start
        return integer && !overflow ? (negative ? -value : value) : nil
    }
}
