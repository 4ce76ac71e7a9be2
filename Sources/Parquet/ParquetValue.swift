/// One cell of a row handed to `ParquetWriter.append(row:)`.
///
/// A `string` column takes `.string`; an `int64`, `timestampMicros` or `decimal` column takes
/// `.int64` (microseconds since 1970-01-01T00:00:00Z for a timestamp, the unscaled value for a
/// decimal: 1.5 in a scale-6 column is `.int64(1_500_000)`); a `boolean` column takes `.bool`;
/// a nullable column also takes `.null`.
public enum ParquetValue: Sendable, Equatable {
    /// No value (nullable columns only).
    case null
    /// Text for a `string` column, written as its exact UTF-8 bytes.
    case string(String)
    /// An integer, a timestamp's microseconds, or a decimal's unscaled value.
    case int64(Int64)
    /// A value of a `boolean` column.
    case bool(Bool)

    /// The longest string taken, in UTF-8 bytes (512 MiB: a page must stay within 32-bit sizes).
    public static let maxStringBytes = 1 << 29
}
