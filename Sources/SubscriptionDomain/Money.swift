/// An exact decimal amount in millionths (micro-units), parsed from and printed as a decimal string.
/// Sums and products saturate at the bounds of Int64 (about ±9.2 trillion units) instead of
/// trapping; the prices the ledger accepts are far inside (`ValueRanges.prices`).
public struct Money: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var micros: Int64
    public init(micros: Int64) { self.micros = micros }
    public static let zero = Money(micros: 0)
    public static func < (a: Money, b: Money) -> Bool { a.micros < b.micros }
    /// Saturating sum.
    public static func + (a: Money, b: Money) -> Money { Money(micros: a.micros.addingSaturated(b.micros)) }
    /// Saturating difference.
    public static func - (a: Money, b: Money) -> Money { Money(micros: a.micros.subtractingSaturated(b.micros)) }
    public static func += (a: inout Money, b: Money) { a.micros = a.micros.addingSaturated(b.micros) }

    /// Parses `123`, `9.99`, `0.000001`, `-9.99` (up to 6 decimals, no exponent); nil if it is not
    /// that or does not fit. A sign is read (a store's refund may carry one); the import door
    /// accepts only `ValueRanges.prices`.
    public static func parse(_ b: UnsafeRawBufferPointer) -> Money? {
        guard !b.isEmpty else { return nil }
        let negative = b[0] == 45
        var i = negative ? 1 : 0
        guard i < b.count, b[i] != 46 else { return nil }
        var units: Int64 = 0
        var decimals = -1
        while i < b.count {
            let c = b[i]
            i += 1
            if c == 46 {
                guard decimals < 0 else { return nil }
                decimals = 0
                continue
            }
            guard c >= 48, c <= 57 else { return nil }
            if decimals >= 0 { decimals += 1; guard decimals <= 6 else { return nil } }
            let (m, o1) = units.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(c - 48))
            guard !o1, !o2 else { return nil }
            units = a
        }
        if decimals == 0 { return nil }
        var scale: Int64 = 1
        for _ in max(0, decimals)..<6 { scale *= 10 }
        let (micros, overflow) = units.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        return Money(micros: negative ? -micros : micros)
    }

    public static func parse(_ s: String) -> Money? {
        var s = s
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `s` is written as an amount `parse` reads (`-`, digits, `.` and up to 6 decimals),
    /// whether or not it fits: tells "out of range" from "not an amount" in error messages.
    package static func isDecimal(_ s: String) -> Bool {
        let parts = (s.hasPrefix("-") ? s.dropFirst() : Substring(s)).split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
            && (parts.count == 1 || parts[1].count <= 6)
    }

    /// Multiplies by `percent`/100, rounding half away from zero to the micro-unit (saturating).
    public func percent(_ percent: Int) -> Money {
        Money(micros: Self.scaledRounded(micros, by: Int64(percent), over: 100))
    }

    /// Scales by a rational factor, rounding half away from zero to the micro-unit (for monthly
    /// normalisation; saturating; a zero denominator gives zero).
    public func scaled(by numerator: Int64, over denominator: Int64) -> Money {
        Money(micros: Self.scaledRounded(micros, by: numerator, over: denominator))
    }

    /// `v × n ÷ d` rounded half away from zero, exact over 128 bits, saturating at Int64's bounds.
    static func scaledRounded(_ v: Int64, by n: Int64, over d: Int64) -> Int64 {
        guard d != 0 else { return 0 }
        // The result's sign: of v × n, flipped by a negative divisor.
        let negative = ((v < 0) != (n < 0) && v != 0 && n != 0) != (d < 0)
        let divisor = d.magnitude
        // |v × n| as 128 bits, plus half the divisor for the rounding.
        var (high, low) = v.magnitude.multipliedFullWidth(by: n.magnitude)
        let (sum, carry) = low.addingReportingOverflow(divisor / 2)
        low = sum
        if carry { high &+= 1 }
        // The quotient fits in 64 bits only if the high half is below the divisor.
        guard high < divisor else { return negative ? .min : .max }
        let q = divisor.dividingFullWidth((high, low)).quotient
        if negative { return q > UInt64(Int64.max) + 1 ? .min : Int64(truncatingIfNeeded: 0 &- q) }
        return q > UInt64(Int64.max) ? .max : Int64(q)
    }

    /// At least two decimals, more only if needed: `9.99`, `10.00`, `0.000001`.
    /// Appends `description`'s bytes to `out` without building a String.
    public func appendDecimal(to out: inout [UInt8]) {
        let m = micros.magnitude
        if micros < 0 { out.append(0x2D) }
        Self.appendDigits(m / 1_000_000, width: 1, to: &out)
        out.append(0x2E)
        var fraction = m % 1_000_000
        var width = 6
        while width > 2 && fraction % 10 == 0 { fraction /= 10; width -= 1 }
        Self.appendDigits(fraction, width: width, to: &out)
    }

    /// Appends `String(v)`'s bytes to `out`.
    package static func appendInteger(_ v: Int, to out: inout [UInt8]) {
        if v < 0 { out.append(0x2D) }
        appendDigits(UInt64(v.magnitude), width: 1, to: &out)
    }

    /// The decimal digits of `v`, zero-padded to at least `width`.
    static func appendDigits(_ v: UInt64, width: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var v = v
            var n = 0
            repeat {
                digits[19 - n] = UInt8(48 + v % 10)
                v /= 10
                n += 1
            } while v > 0 || n < width
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - n)...]))
        }
    }

    public var description: String {
        let m = micros.magnitude
        var frac = String(m % 1_000_000)
        frac = String(repeating: "0", count: 6 - frac.count) + frac
        while frac.count > 2 && frac.hasSuffix("0") { frac.removeLast() }
        return (micros < 0 ? "-" : "") + String(m / 1_000_000) + "." + frac
    }
}
