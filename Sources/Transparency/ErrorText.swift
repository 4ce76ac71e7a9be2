/// A user-supplied text shown in an error: quoted, cut to 80 characters, control characters escaped.
func quoted(_ text: some StringProtocol) -> String {
    var out = ""
    for scalar in text.unicodeScalars.prefix(80) {
        out += scalar.value < 0x20 || scalar.value == 0x7f ? scalar.escaped(asASCII: true) : String(scalar)
    }
    if text.unicodeScalars.count > 80 { out += "…" }
    return "\"\(out)\""
}
