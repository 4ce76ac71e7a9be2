import SubscriptionDomain

/// How many decimals a currency's amounts have (its ISO 4217 minor unit: JPY 0, USD 2, KWD 3),
/// and amounts rounded to them for people. Scripts get the exact decimal (JSON, CSV); tables and
/// the report round here.
public enum MinorUnits {
    /// ISO 4217 currencies whose minor unit is not 2 (the list's "minor unit" column); any other
    /// code, a made-up one included, has 2.
    static let exceptions: [String: Int] = [
        // No minor unit.
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
        "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        // Thousandths.
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        // Ten-thousandths (units of account).
        "CLF": 4, "UYW": 4,
    ]

    /// The decimals of `currency`'s amounts: 0 to 4.
    public static func digits(_ currency: String) -> Int { exceptions[currency] ?? 2 }

    /// `m` in whole minor units of `currency` (cents, yen), rounded half away from zero; the sign
    /// is kept apart so that -0.004 USD is "0.00", not "-0.00".
    static func minor(_ m: Money, _ currency: String) -> (negative: Bool, units: UInt64, digits: Int) {
        let digits = digits(currency)
        var scale: UInt64 = 1
        for _ in digits..<6 { scale *= 10 }
        let units = (m.micros.magnitude + scale / 2) / scale
        return (m.micros < 0 && units > 0, units, digits)
    }

    /// `m` rounded to `currency`'s minor unit, as a plain decimal: `67.93`, `1235` (JPY), `-0.50`.
    public static func rounded(_ m: Money, _ currency: String) -> String {
        let (negative, units, digits) = minor(m, currency)
        return (negative ? "-" : "") + decimal(units, digits: digits, group: false)
    }

    /// `units` minor units with `digits` decimals; `group` puts a comma every three whole digits.
    static func decimal(_ units: UInt64, digits: Int, group: Bool) -> String {
        var p: UInt64 = 1
        for _ in 0..<digits { p *= 10 }
        let whole = String(units / p)
        var out = ""
        for (i, c) in whole.enumerated() {
            if group && i > 0 && (whole.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        guard digits > 0 else { return out }
        let frac = String(units % p)
        return out + "." + String(repeating: "0", count: digits - frac.count) + frac
    }
}
