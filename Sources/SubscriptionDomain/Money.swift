/// An exact decimal amount in millionths (micro-units), parsed from and printed as a decimal string.
public struct Money: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var micros: Int64
    public init(micros: Int64) { self.micros = micros }
    public static let zero = Money(micros: 0)
    public static func < (a: Money, b: Money) -> Bool { a.micros < b.micros }
    public static func + (a: Money, b: Money) -> Money { Money(micros: a.micros + b.micros) }
    public static func - (a: Money, b: Money) -> Money { Money(micros: a.micros - b.micros) }
    public static func += (a: inout Money, b: Money) { a.micros += b.micros }

    /// Parses `123`, `9.99`, `0.000001` (up to 6 decimals, no sign, no exponent).
    public static func parse(_ b: UnsafeRawBufferPointer) -> Money? {
        guard !b.isEmpty, b.count <= 19 else { return nil }
        var units: Int64 = 0
        var decimals = -1
        for c in b {
            if c == 46 {
                guard decimals < 0 else { return nil }
                decimals = 0
                continue
            }
            guard c >= 48, c <= 57 else { return nil }
            if decimals >= 0 { decimals += 1; guard decimals <= 6 else { return nil } }
            units = units * 10 + Int64(c - 48)
        }
        if decimals == 0 || b.first == 46 { return nil }
        for _ in max(0, decimals)..<6 { units *= 10 }
        return Money(micros: units)
    }

    public static func parse(_ s: String) -> Money? {
        var s = s
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Multiplies by `percent`/100, rounding half away from zero to the micro-unit.
    public func percent(_ percent: Int) -> Money {
        let scaled = micros * Int64(percent)
        return Money(micros: (scaled + (scaled >= 0 ? 50 : -50)) / 100)
    }

    /// Scales by a rational factor, rounding to the micro-unit (for monthly normalisation).
    public func scaled(by numerator: Int64, over denominator: Int64) -> Money {
        let v = micros * numerator
        return Money(micros: (v + (v >= 0 ? denominator / 2 : -denominator / 2)) / denominator)
    }

    /// At least two decimals, more only if needed: `9.99`, `10.00`, `0.000001`.
    public var description: String {
        let negative = micros < 0
        let m = negative ? -micros : micros
        var frac = String(m % 1_000_000)
        frac = String(repeating: "0", count: 6 - frac.count) + frac
        while frac.count > 2 && frac.hasSuffix("0") { frac.removeLast() }
        return (negative ? "-" : "") + String(m / 1_000_000) + "." + frac
    }
}
