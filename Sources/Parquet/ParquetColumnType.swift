/// The type of a column as readers see it, with its physical form in the file.
public enum ParquetColumnType: Sendable, Equatable {
    /// UTF-8 text: BYTE_ARRAY annotated STRING (ConvertedType UTF8). Arrow: `string`.
    case string
    /// A signed 64-bit integer: INT64. Arrow: `int64`.
    case int64
    /// BOOLEAN, bit-packed. Arrow: `bool`.
    case boolean
    /// An instant in microseconds since the Unix epoch: INT64 annotated
    /// TIMESTAMP(isAdjustedToUTC = true, unit = MICROS) (ConvertedType TIMESTAMP_MICROS).
    /// Arrow: `timestamp[us, tz=UTC]`.
    case timestampMicros
    /// A decimal stored as its unscaled value in INT64, annotated DECIMAL(scale, precision)
    /// (ConvertedType DECIMAL); `precision` is 1...18 and `scale` 0...precision. Values must lie
    /// within ±(10^precision − 1). Arrow: `decimal128(precision, scale)`.
    case decimal(precision: Int, scale: Int)

    /// The money columns' type: decimal(18, 6), micro-units in an Int64.
    public static let decimal18x6 = ParquetColumnType.decimal(precision: 18, scale: 6)
}
