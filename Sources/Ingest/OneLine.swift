/// Text made safe to print as one line of a report, such as a rejected line's reason, which can
/// embed what the input said (a `type` value may hold a newline once its JSON escapes are decoded).
public enum OneLine {
    /// `text` with every control character escaped: `\n`, `\r`, `\t`, else `\u` and four lowercase
    /// hex digits (C0 controls, DEL, the C1 controls such as U+0085, and the line and paragraph
    /// separators U+2028 and U+2029); a backslash is doubled, so the escaped form reads back
    /// unambiguously. Past `limit` Unicode scalars of `text` the rest is cut and counted:
    /// `…(N more characters)`.
    public static func escaped(_ text: String, limit: Int = .max) -> String {
        let scalars = text.unicodeScalars
        if !scalars.contains(where: needsEscape) && (limit == .max || scalars.count <= limit) { return text }
        var out = String.UnicodeScalarView()
        var taken = 0
        var i = scalars.startIndex
        while i != scalars.endIndex {
            if taken == limit {
                out.append(contentsOf: "…(\(scalars[i...].count) more characters)".unicodeScalars)
                break
            }
            let scalar = scalars[i]
            switch scalar {
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
            case _ where needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            default: out.append(scalar)
            }
            taken += 1
            i = scalars.index(after: i)
        }
        return String(out)
    }

    /// Control characters, line separators and the backslash (the escape character itself).
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || s.value == 0x5C || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
    }
}
