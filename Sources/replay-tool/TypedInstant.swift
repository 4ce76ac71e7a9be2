import SubscriptionDomain

/// The instants people type on the command line, besides RFC 3339: `now`, `today` and
/// `yesterday` (midnight UTC starting that day), `tomorrow`, and an offset from now such as
/// `-7d`, `-12h`, `+30m`, `-2w` (units `s`, `m`, `h`, `d`, `w`; days are 24 hours). All are read
/// against the tool's clock (`REPLAY_TOOL_NOW` when set), so a test or a demo is reproducible.
enum TypedInstant {
    /// The forms, as error messages and help print them.
    static let formsText = "an RFC 3339 time such as 2026-01-06T10:00:00Z, now, today, yesterday, tomorrow, or an offset from now such as -7d, -12h, +30m, -2w"

    /// The instant `text` names relative to `now`, or nil when it is none of the relative forms
    /// (then it is read as RFC 3339). The result may lie outside the accepted range: the caller checks.
    static func relative(_ text: String, now: Timestamp) -> Timestamp? {
        let day: Int64 = 86_400_000_000_000
        let ns = now.nanoseconds
        let midnight = Timestamp(nanoseconds: (ns >= 0 ? ns / day : (ns + 1) / day - 1) * day)
        switch text {
        case "now": return now
        case "today": return midnight
        case "yesterday": return Timestamp(nanoseconds: midnight.nanoseconds.subtractingSaturated(day))
        case "tomorrow": return Timestamp(nanoseconds: midnight.nanoseconds.addingSaturated(day))
        default: break
        }
        let bytes = Array(text.utf8)
        // A sign, 1 to 9 digits, one unit.
        guard bytes.count >= 3, bytes.count <= 11, bytes[0] == 0x2D || bytes[0] == 0x2B,
              bytes[1..<(bytes.count - 1)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let n = Int64(String(decoding: bytes[1..<(bytes.count - 1)], as: UTF8.self)) else { return nil }
        let unit: Int64
        switch bytes[bytes.count - 1] {
        case 0x73: unit = 1_000_000_000            // s
        case 0x6D: unit = 60_000_000_000           // m
        case 0x68: unit = 3_600_000_000_000        // h
        case 0x64: unit = day                      // d
        case 0x77: unit = 7 * day                  // w
        default: return nil
        }
        let offset = n.multipliedSaturated(by: unit)
        return Timestamp(nanoseconds: bytes[0] == 0x2D ? now.nanoseconds.subtractingSaturated(offset) : now.nanoseconds.addingSaturated(offset))
    }
}
