/// One entry of the footer's key-value metadata (e.g. `ledger.head.position` → `"43"`).
public struct ParquetKeyValue: Sendable, Equatable {
    /// The key, e.g. `ledger.head.hash`.
    public var key: String
    /// The value, as text.
    public var value: String

    /// A pair `key` → `value`.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
