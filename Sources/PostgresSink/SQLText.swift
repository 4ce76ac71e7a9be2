/// Values written into SQL text and into `COPY … FROM STDIN` data (text format). Nothing the log
/// holds is ever pasted into SQL unquoted: identifiers are fixed in this module, values go
/// through `literal` (standard-conforming strings: only `'` is special) or `copyField`.
public enum SQLText {
    /// A SQL string literal: `'…'` with `'` doubled. With `standard_conforming_strings` on (the
    /// default since PostgreSQL 9.1, and set by every script this module writes) a backslash is
    /// an ordinary character.
    public static func literal(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A field of COPY's text format: backslash, tab, newline and carriage return escaped;
    /// nil is `\N`.
    public static func copyField(_ s: String?) -> String {
        guard let s else { return "\\N" }
        guard s.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// One line of COPY data.
    public static func copyLine(_ fields: [String?]) -> String {
        fields.map(copyField).joined(separator: "\t") + "\n"
    }

    /// Whether `s` is a UUID as PostgreSQL's `uuid` type reads it in the canonical form that
    /// app user ids use (8-4-4-4-12 hex digits, either case). Other spellings PostgreSQL would
    /// also take (braces, no hyphens) are not app user ids and are refused, so that a row's
    /// `user_id` prints back as the ledger's user id.
    public static func isUUID(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != 0x2D { return false }
            } else if !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)) {
                return false
            }
        }
        return true
    }

    /// Whether a `text`/`varchar` column can hold `s`: PostgreSQL text cannot hold NUL.
    public static func fitsText(_ s: String, maxLength: Int? = nil) -> Bool {
        if s.utf8.contains(0) { return false }
        if let maxLength, s.count > maxLength { return false }
        return true
    }
}
