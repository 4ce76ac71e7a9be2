/// PEM (RFC 7468) certificate blocks: the base64 between `-----BEGIN CERTIFICATE-----` and
/// `-----END CERTIFICATE-----` lines, line breaks and surrounding whitespace removed, decoded strictly.
public enum PEM {
    /// The DER of every CERTIFICATE block in `text`, in order; throws when there is none or one is malformed.
    public static func certificates(in text: String) throws(Base64.DecodingError) -> [[UInt8]] {
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        var out: [[UInt8]] = []
        var inside = false
        var body = ""
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }).enumerated() {
            let line = rawLine.trimmingASCIIWhitespace()
            if !inside {
                if line == begin { inside = true; body = "" }
            } else if line == end {
                out.append(try Base64.decode(body))
                inside = false
            } else if line.hasPrefix("-----") {
                throw Base64.DecodingError(reason: "unexpected PEM boundary on line \(number + 1)", offset: 0)
            } else {
                body += line
            }
        }
        if inside { throw Base64.DecodingError(reason: "PEM block has no END line", offset: text.utf8.count) }
        if out.isEmpty { throw Base64.DecodingError(reason: "no CERTIFICATE block in PEM text", offset: 0) }
        return out
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and carriage returns.
    func trimmingASCIIWhitespace() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
