/// A JSON value as the proof documents use it: objects keep their member order; numbers are
/// whole numbers from 0 to 2^64 - 1 only (the documents hold nothing else).
public indirect enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(UInt64)
    case bool(Bool)
    case null

    /// Structural equality; strings and keys compare byte for byte.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
        case (.array(let x), .array(let y)): x == y
        case (.string(let x), .string(let y)): x.utf8.elementsEqual(y.utf8)
        case (.number(let x), .number(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// Limits on what the parser accepts.
    public struct Limits: Sendable {
        /// The largest input, in bytes.
        public var maxBytes: Int
        /// The deepest nesting of arrays and objects.
        public var maxDepth: Int

        /// Limits of `maxBytes` bytes and `maxDepth` levels of nesting.
        public init(maxBytes: Int = 256 << 20, maxDepth: Int = 16) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }
    }

    /// Parses one JSON value filling all of `bytes` (white space around it allowed), strictly:
    /// valid UTF-8, no duplicate object keys, no control characters in strings, no lone
    /// surrogate escapes, numbers only as whole numbers without leading zeros below 2^64.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(ProofFormatError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw ProofFormatError(offset: 0, "input of \(bytes.count) bytes is over the limit of \(limits.maxBytes)")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ProofFormatError(offset: 0, "input is not valid UTF-8")
        }
        var parser = JSONParser(bytes: bytes, maxDepth: limits.maxDepth)
        let value = try parser.value(depth: 0)
        parser.skipWhiteSpace()
        guard parser.offset == bytes.count else { throw parser.error("unexpected bytes after the JSON value") }
        return value
    }
}

/// The parser's cursor over the input.
struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var offset = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ message: String) -> ProofFormatError { ProofFormatError(offset: offset, message) }

    mutating func skipWhiteSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0a, 0x0d: offset += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: String, _ value: JSONValue) throws(ProofFormatError) -> JSONValue {
        let expected = Array(literal.utf8)
        guard offset + expected.count <= bytes.count, Array(bytes[offset..<(offset + expected.count)]) == expected else {
            throw error("expected \(literal)")
        }
        offset += expected.count
        return value
    }

    mutating func value(depth: Int) throws(ProofFormatError) -> JSONValue {
        skipWhiteSpace()
        guard offset < bytes.count else { throw error("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "-"): throw error("negative numbers are not allowed")
        default: throw error("unexpected character")
        }
    }

    mutating func object(depth: Int) throws(ProofFormatError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        offset += 1
        var members: [(key: String, value: JSONValue)] = []
        var keys = Set<[UInt8]>()
        skipWhiteSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhiteSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let keyOffset = offset
            let key = try string()
            guard keys.insert(Array(key.utf8)).inserted else {
                throw ProofFormatError(offset: keyOffset, "duplicate member \(quoted(key))")
            }
            skipWhiteSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':'") }
            offset += 1
            members.append((key, try value(depth: depth)))
            skipWhiteSpace()
            guard offset < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            if bytes[offset] == UInt8(ascii: "}") { offset += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(ProofFormatError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        offset += 1
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth))
            skipWhiteSpace()
            guard offset < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            if bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(elements) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func number() throws(ProofFormatError) -> UInt64 {
        let start = offset
        while offset < bytes.count, bytes[offset] >= 0x30, bytes[offset] <= 0x39 { offset += 1 }
        if offset < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[offset]) {
            throw error("only whole numbers are allowed")
        }
        let digits = bytes[start..<offset]
        guard digits.count == 1 || digits.first != 0x30 else {
            throw ProofFormatError(offset: start, "number with a leading zero")
        }
        var value: UInt64 = 0
        for d in digits {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d - 0x30))
            guard !o1, !o2 else { throw ProofFormatError(offset: start, "number above 2^64 - 1") }
            value = sum
        }
        return value
    }

    mutating func string() throws(ProofFormatError) -> String {
        offset += 1
        var out: [UInt8] = []
        while true {
            guard offset < bytes.count else { throw error("unterminated string") }
            let c = bytes[offset]
            switch c {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                offset += 1
                guard offset < bytes.count else { throw error("unterminated escape") }
                let e = bytes[offset]
                offset += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5c)
                case UInt8(ascii: "/"): out.append(0x2f)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                            throw error("a high surrogate escape without its low half")
                        }
                        offset += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("a high surrogate escape without its low half") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw error("a lone low surrogate escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("an escape that is no Unicode scalar") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("unknown escape")
                }
            default:
                guard c >= 0x20 else { throw error("a control character inside a string") }
                out.append(c)
                offset += 1
            }
        }
    }

    mutating func hex4() throws(ProofFormatError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[offset]
            let v: UInt32
            switch c {
            case 0x30...0x39: v = UInt32(c - 0x30)
            case 0x61...0x66: v = UInt32(c - 0x61 + 10)
            case 0x41...0x46: v = UInt32(c - 0x41 + 10)
            default: throw error("a \\u escape with a non-hex digit")
            }
            value = value << 4 | v
            offset += 1
        }
        return value
    }
}
