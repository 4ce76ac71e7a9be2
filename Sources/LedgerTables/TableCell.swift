import Parquet
import SubscriptionDomain

/// The ledger's typed values as table cells: times as microseconds since 1970 (rounded down: an
/// event time given to the nanosecond keeps its microseconds), money as its micro-units (the
/// unscaled `DECIMAL(18,6)`), and back to text for CSV.
public enum TableCell {
    /// A time as `TIMESTAMP(MICROS, UTC)`, or null.
    @inline(__always) public static func time(_ t: Timestamp?) -> ParquetValue {
        guard let t else { return .null }
        return .int64(t.nanoseconds >= 0 ? t.nanoseconds / 1000 : -((-t.nanoseconds + 999) / 1000))
    }

    /// An amount as `DECIMAL(18,6)`, or null.
    @inline(__always) public static func money(_ m: Money?) -> ParquetValue { m.map { .int64($0.micros) } ?? .null }

    /// A string, or null.
    @inline(__always) public static func text(_ s: String?) -> ParquetValue { s.map(ParquetValue.string) ?? .null }

    /// A boolean, or null.
    @inline(__always) public static func bool(_ b: Bool?) -> ParquetValue { b.map(ParquetValue.bool) ?? .null }

    /// A cell as CSV text (nil for SQL NULL): times in RFC 3339 UTC, money as the ledger prints
    /// it (`9.99`, `0.000001`), booleans `true`/`false`.
    public static func csvText(_ value: ParquetValue, _ type: ParquetColumnType) -> String? {
        switch value {
        case .null: return nil
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .int64(let v):
            switch type {
            case .timestampMicros: return Timestamp(nanoseconds: v.multipliedReportingOverflow(by: 1000).partialValue).description
            case .decimal: return Money(micros: v).description
            case .string, .int64, .boolean: return String(v)
            }
        }
    }
}
