/// The accepted range of every value the ledger takes in (docs/rules.md#ranges), checked at the
/// door: import (canonical lines and store payloads alike), profile load, and the command line's
/// instants (`--at`, `--from`, `--to`). The ranges keep every sum an instant and a duration can
/// make far inside Int64 nanoseconds; past the door, arithmetic saturates (Saturating.swift), so
/// neither a sum of many accepted values nor a value an older version let in can trap.
public enum ValueRanges {
    /// Event times (`time`, `expires`, `graceExpires`, `resumesAt`) and query instants: from
    /// 1970-01-01T00:00:00Z up to 2200-01-01T00:00:00Z, excluded.
    public static let times = Timestamp(nanoseconds: 0)..<Timestamp(seconds: 7_258_118_400)
    /// Prices and amounts: 0 to 1,000,000,000 with up to 6 decimals.
    public static let prices = Money.zero...Money(micros: 1_000_000_000_000_000)
    /// `quantity` of `consumable_purchase` and `credits_used`.
    public static let quantities = 1...1_000_000
    /// Profile lengths in days (`trialDays`, `billingGraceDays`): up to ten years.
    public static let days = 0...3650
    /// Profile lengths in hours (`unverifiedGraceHours`, `trialReminderLeadHours`): up to ten years.
    public static let hours = 0...87_600
    /// A profile's `commissionPercent`.
    public static let percents = 0...100
    /// A subscription product's `periodMonths`.
    public static let periodMonths = 1...120
    /// A consumable product's `credits`.
    public static let credits = 1...1_000_000
    /// The length in UTF-8 bytes of an `id`, a `user` and `data.to`: what the log can key a record by.
    public static let idBytes = 1...65_535
    /// A profile name's length; its characters are A-Z, a-z, 0-9, `.`, `_`, `-`, not starting with `.`.
    public static let profileNameLength = 1...64

    /// The accepted times, as error messages print them.
    public static let timesText = "accepted: \(times.lowerBound) up to \(times.upperBound), excluded"
    /// The accepted prices, as error messages print them.
    public static let pricesText = "accepted: 0 to 1000000000, up to 6 decimals"

    /// Why a text is not an accepted instant.
    public enum TimeRefusal: Error, Sendable, Equatable {
        /// Not written as RFC 3339.
        case notRFC3339
        /// Well written, but outside `times`.
        case outOfRange
    }

    /// Parses an RFC 3339 instant and checks that it lies in `times`.
    public static func time(_ text: String) -> Result<Timestamp, TimeRefusal> {
        guard let t = Timestamp.parse(text) else { return .failure(Timestamp.isRFC3339(text) ? .outOfRange : .notRFC3339) }
        return times.contains(t) ? .success(t) : .failure(.outOfRange)
    }

    /// Whether `s` holds a control character (U+0000–U+001F or U+007F), which no id may hold.
    @inline(__always) public static func hasControlCharacter(_ s: String) -> Bool {
        s.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// Checks an event the codec or a store mapping made: its times, price, quantity and ids (their
    /// length in bytes and characters).
    /// The codec alone is more lenient, so that logs written before these checks still read.
    public static func check(_ e: Event) throws(EventDecodingError) { try check(e, fields: e.allFields) }

    /// The same, given `e.allFields` (a caller that needs them too builds them once).
    public static func check(_ e: Event, fields d: EventFields) throws(EventDecodingError) {
        // Ids, then times, then amounts: the fields of each range as the field table says (`EventField.spec`).
        try id(e.id, "id")
        try id(e.user, "user")
        for f in idFields { if case .string(let v)? = d[f] { try id(v, "data." + f.rawValue) } }
        try time(e.time, "time")
        for f in timeFields { if case .time(let t)? = d[f] { try time(t, "data." + f.rawValue) } }
        // A period that ends before it starts: a purchase or renewal whose expires is not after its time.
        if e.type == .purchase || e.type == .renewal, let x = d.expires, x <= e.time {
            throw EventDecodingError("field 'data.expires': \(x) is not after the \(e.type.rawValue)'s time \(e.time): a paid period ends after it starts (seconds instead of milliseconds?)")
        }
        for f in priceFields {
            if case .money(let p)? = d[f], !prices.contains(p) {
                throw EventDecodingError("field 'data.\(f.rawValue)': \(p) is out of range (\(pricesText))")
            }
        }
        for f in quantityFields {
            if case .int(let q)? = d[f], !quantities.contains(q) {
                throw EventDecodingError("field 'data.\(f.rawValue)': \(q) is out of range (accepted: \(quantities.lowerBound) to \(quantities.upperBound))")
            }
        }
    }

    /// The data fields of each range, from the field table.
    private static let idFields = EventField.fields(in: .id)
    private static let timeFields = EventField.fields(in: .time)
    private static let priceFields = EventField.fields(in: .price)
    private static let quantityFields = EventField.fields(in: .quantity)

    private static func time(_ t: Timestamp, _ field: String) throws(EventDecodingError) {
        guard times.contains(t) else { throw EventDecodingError("field '\(field)': \(t) is out of range (\(timesText))") }
    }

    /// Checks a user id asked for (`--user`) as the door checks the ids it lets in: one the log
    /// could never hold is refused, not answered as a guest.
    public static func checkUser(_ s: String, _ field: String) throws(EventDecodingError) { try id(s, field) }

    private static func id(_ s: String, _ field: String) throws(EventDecodingError) {
        let bytes = s.utf8.count
        if bytes == 0 { throw EventDecodingError("field '\(field)' is empty (accepted: \(idBytes.lowerBound) to \(idBytes.upperBound) bytes)") }
        if bytes > idBytes.upperBound {
            throw EventDecodingError("field '\(field)' is \(bytes) bytes, over the log's limit (accepted: \(idBytes.lowerBound) to \(idBytes.upperBound) bytes)")
        }
        guard hasControlCharacter(s) else { return }
        let c = s.unicodeScalars.first { $0.value < 0x20 || $0.value == 0x7F }!
        let code = String(c.value, radix: 16, uppercase: true)
        throw EventDecodingError("field '\(field)' holds the control character U+\(String(repeating: "0", count: 4 - code.count) + code) (ids may not hold U+0000–U+001F or U+007F)")
    }
}
