/// Splits an origin-form request target into its percent-decoded path and query pairs.
enum RequestTarget {
    /// Decodes `bytes[range]` (already checked to hold only target bytes and to start with `/`).
    /// `base` is the range's offset from the request's first byte, for error positions.
    static func decode(_ bytes: [UInt8], _ range: Range<Int>, base: Int) -> Result<(path: String, query: [(String, String)]), HTTPRequestError> {
        let questionMark = bytes[range].firstIndex(of: UInt8(ascii: "?")) ?? range.upperBound
        let path: String
        switch text(bytes, range.lowerBound..<questionMark, plusIsSpace: false, base: base - range.lowerBound) {
        case .success(let decoded): path = decoded
        case .failure(let error): return .failure(error)
        }
        var query: [(String, String)] = []
        var pieceStart = questionMark + 1
        while pieceStart <= range.upperBound && questionMark < range.upperBound {
            let pieceEnd = bytes[pieceStart..<range.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? range.upperBound
            if pieceEnd > pieceStart {
                let equals = bytes[pieceStart..<pieceEnd].firstIndex(of: UInt8(ascii: "=")) ?? pieceEnd
                let name = text(bytes, pieceStart..<equals, plusIsSpace: true, base: base - range.lowerBound)
                let value = text(bytes, min(equals + 1, pieceEnd)..<pieceEnd, plusIsSpace: true, base: base - range.lowerBound)
                switch (name, value) {
                case (.success(let n), .success(let v)): query.append((n, v))
                case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
                }
            }
            pieceStart = pieceEnd + 1
        }
        return .success((path, query))
    }

    /// Percent-decodes `bytes[range]` into UTF-8 text; `shift` turns buffer indexes into request offsets.
    private static func text(_ bytes: [UInt8], _ range: Range<Int>, plusIsSpace: Bool, base shift: Int) -> Result<String, HTTPRequestError> {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < range.upperBound,
                      ByteClass.test(bytes[i + 1], ByteClass.hex), ByteClass.test(bytes[i + 2], ByteClass.hex) else {
                    return .failure(HTTPRequestError(.invalidPercentEncoding, at: i + shift, "% not followed by two hex digits"))
                }
                let value = ByteClass.hexValue(bytes[i + 1]) << 4 | ByteClass.hexValue(bytes[i + 2])
                if value == 0 { return .failure(HTTPRequestError(.nulByte, at: i + shift, "%00 in the target")) }
                decoded.append(value)
                i += 3
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                i += 1
            }
        }
        guard let string = String(validating: decoded, as: UTF8.self) else {
            return .failure(HTTPRequestError(.invalidPercentEncoding, at: range.lowerBound + shift, "decodes to bytes that are not UTF-8"))
        }
        return .success(string)
    }
}
