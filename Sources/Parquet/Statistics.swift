/// parquet.thrift `struct Statistics` of one column chunk: bounds PLAIN-encoded (byte arrays
/// without their length) and the null count.
struct Statistics: CompactEncodable {
    var nullCount: Int64
    var minValue: [UInt8]?
    var maxValue: [UInt8]?
    /// Whether the deprecated `min`/`max` (signed order) are written too: true for the integer and
    /// boolean columns, whose type order is the signed one.
    var alsoDeprecatedBounds: Bool

    func encode(into w: inout CompactProtocolWriter) {
        if alsoDeprecatedBounds, let minValue, let maxValue {
            w.field(1, binary: maxValue)
            w.field(2, binary: minValue)
        }
        w.field(3, i64: nullCount)
        if let minValue, let maxValue {
            w.field(5, binary: maxValue)
            w.field(6, binary: minValue)
            w.field(7, bool: true)
            w.field(8, bool: true)
        }
    }
}
