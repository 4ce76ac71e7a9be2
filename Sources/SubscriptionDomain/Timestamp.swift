/// An instant in UTC, nanoseconds since 1970-01-01T00:00:00Z. Parsed and printed as RFC 3339.
/// Moving an instant saturates at the bounds of Int64 (1677-09-21 to 2262-04-11) instead of
/// trapping; the range the ledger accepts is far inside (`ValueRanges.times`).
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var nanoseconds: Int64
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    /// Whole seconds since 1970 (saturating).
    public init(seconds: Int64) { nanoseconds = seconds.multipliedSaturated(by: 1_000_000_000) }
    /// Milliseconds since 1970, as the stores give them (saturating).
    public init(milliseconds: Int64) { nanoseconds = milliseconds.multipliedSaturated(by: 1_000_000) }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.nanoseconds < b.nanoseconds }
    /// This instant moved by a duration (saturating).
    public static func + (t: Timestamp, d: Duration) -> Timestamp { Timestamp(nanoseconds: t.nanoseconds.addingSaturated(d.nanoseconds)) }
    public static func - (t: Timestamp, d: Duration) -> Timestamp { Timestamp(nanoseconds: t.nanoseconds.subtractingSaturated(d.nanoseconds)) }

    /// A span of time in nanoseconds.
    public struct Duration: Sendable, Hashable, Comparable {
        public var nanoseconds: Int64
        public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
        public static func < (a: Duration, b: Duration) -> Bool { a.nanoseconds < b.nanoseconds }
        /// `h` hours (saturating).
        public static func hours(_ h: Int) -> Duration { Duration(nanoseconds: Int64(h).multipliedSaturated(by: 3_600_000_000_000)) }
        /// `d` days (saturating).
        public static func days(_ d: Int) -> Duration { hours(d.multipliedSaturated(by: 24)) }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
    public static func civil(days z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` from raw bytes; nil if it is not that, or
    /// if the instant does not fit in Int64 nanoseconds (before 1677-09-21 or after 2262-04-11).
    @inline(__always) public static func parse(_ b: UnsafeRawBufferPointer) -> Timestamp? {
        guard let (seconds, fraction) = fields(b) else { return nil }
        let (whole, o1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (ns, o2) = whole.addingReportingOverflow(fraction)
        return o1 || o2 ? nil : Timestamp(nanoseconds: ns)
    }

    /// Whether `b` is written as an RFC 3339 instant, whether or not it fits in a Timestamp.
    public static func isRFC3339(_ b: UnsafeRawBufferPointer) -> Bool { fields(b) != nil }

    /// The seconds since 1970 (years 0000–9999 always fit) and the nanosecond fraction of an
    /// RFC 3339 instant; nil if `b` is not one.
    @inline(__always) static func fields(_ b: UnsafeRawBufferPointer) -> (seconds: Int64, fraction: Int64)? {
        let n = b.count
        guard n >= 20 else { return nil }
        @inline(__always) func digit(_ i: Int) -> Int? {
            let c = b[i]
            return c >= 48 && c <= 57 ? Int(c - 48) : nil
        }
        @inline(__always) func number(_ i: Int, _ count: Int) -> Int? {
            var v = 0
            for k in i..<(i + count) { guard let d = digit(k) else { return nil }; v = v * 10 + d }
            return v
        }
        guard let year = number(0, 4), b[4] == 45, let month = number(5, 2), b[7] == 45, let day = number(8, 2),
              b[10] == 84, let hour = number(11, 2), b[13] == 58, let minute = number(14, 2), b[16] == 58,
              let second = number(17, 2) else { return nil }
        guard month >= 1, month <= 12, day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var i = 19
        var fraction: Int64 = 0
        if b[i] == 46 {
            i += 1
            var digits = 0
            while i < n, let d = digit(i) {
                if digits < 9 { fraction = fraction * 10 + Int64(d) }
                digits += 1
                i += 1
            }
            guard digits >= 1, digits <= 9 else { return nil }
            for _ in digits..<9 { fraction *= 10 }
        }
        var offsetSeconds = 0
        guard i < n else { return nil }
        if b[i] == 90 {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            guard i + 6 == n, let oh = number(i + 1, 2), b[i + 3] == 58, let om = number(i + 4, 2), oh <= 23, om <= 59 else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == 43 ? 1 : -1)
            i += 6
        } else {
            return nil
        }
        guard i == n else { return nil }
        let secs = Int64(days(year: year, month: month, day: day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return (secs, fraction)
    }

    /// Parses an RFC 3339 string.
    public static func parse(_ s: String) -> Timestamp? {
        var s = s
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `s` is written as an RFC 3339 instant, whether or not it fits in a Timestamp.
    public static func isRFC3339(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isRFC3339(UnsafeRawBufferPointer($0)) }
    }

    /// RFC 3339 in UTC with `Z`; a fraction only if non-zero (3, 6 or 9 digits).
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(30)
        appendRFC3339(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the RFC 3339 form to `out` without building a String.
    public func appendRFC3339(to out: inout [UInt8]) {
        var secs = nanoseconds / 1_000_000_000
        var frac = nanoseconds % 1_000_000_000
        if frac < 0 { frac += 1_000_000_000; secs -= 1 }
        var dayCount = secs / 86_400
        var rem = secs % 86_400
        if rem < 0 { rem += 86_400; dayCount -= 1 }
        let (y, m, d) = Self.civil(days: Int(dayCount))
        @inline(__always) func digits(_ v: Int, _ width: Int) {
            var div = 1
            for _ in 1..<width { div *= 10 }
            var v = v
            while div > 0 { out.append(UInt8(48 + (v / div) % 10)); v %= div; div /= 10 }
        }
        digits(y, 4); out.append(45); digits(m, 2); out.append(45); digits(d, 2); out.append(84)
        digits(Int(rem / 3600), 2); out.append(58); digits(Int(rem % 3600 / 60), 2); out.append(58); digits(Int(rem % 60), 2)
        if frac != 0 {
            out.append(46)
            if frac % 1_000_000 == 0 { digits(Int(frac / 1_000_000), 3) }
            else if frac % 1000 == 0 { digits(Int(frac / 1000), 6) }
            else { digits(Int(frac), 9) }
        }
        out.append(90)
    }
}

extension Timestamp {
    /// The same day-of-month and time `months` later (clamped to the month's last day); saturating
    /// at the bounds of Timestamp.
    public static func addMonths(_ months: Int, to t: Timestamp) -> Timestamp {
        MonthSteps(t).adding(months)
    }

    /// An instant taken apart once into its date and time of day, for months to be added to it
    /// several times (`addMonths` for each).
    public struct MonthSteps: Sendable {
        private let year: Int, month: Int, day: Int
        private let rem: Int64

        public init(_ t: Timestamp) {
            let dayCount = Int(t.nanoseconds / 1_000_000_000 / 86_400)
            rem = t.nanoseconds - Int64(dayCount) * 86_400_000_000_000
            (year, month, day) = Timestamp.civil(days: dayCount)
        }

        /// `Timestamp.addMonths(months, to:)` of the instant.
        public func adding(_ months: Int) -> Timestamp {
            let total = (year * 12 + (month - 1)).addingSaturated(months)
            let ny = total / 12, nm = total % 12 + 1
            guard total >= 0, ny <= 9999 else { return Timestamp(nanoseconds: months < 0 ? .min : .max) }
            let nd = min(day, Timestamp.daysIn(month: nm, year: ny))
            return Timestamp(nanoseconds: Int64(Timestamp.days(year: ny, month: nm, day: nd)).multipliedSaturated(by: 86_400_000_000_000).addingSaturated(rem))
        }
    }
}
