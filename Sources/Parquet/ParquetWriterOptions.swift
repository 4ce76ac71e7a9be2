/// Limits and labels of a `ParquetWriter`. Memory held is about one row group's encoded bytes
/// plus one page of raw levels and indices per column.
public struct ParquetWriterOptions: Sendable, Equatable {
    /// A row group is written once its buffered encoded bytes reach this (default 64 MiB).
    public var rowGroupByteLimit: Int = 64 << 20
    /// A row group is written once it holds this many rows (default 1,048,576).
    public var rowGroupRowLimit: Int = 1 << 20
    /// A data page is closed once its encoded values reach this many bytes (default 1 MiB).
    public var pageByteLimit: Int = 1 << 20
    /// A data page is closed once it holds this many rows (default 20,000).
    public var pageRowLimit: Int = 20_000
    /// A dictionary-encoded chunk falls back to PLAIN when its dictionary would pass this many
    /// PLAIN-encoded bytes (default 64 KiB) ...
    public var dictionaryByteLimit: Int = 64 << 10
    /// ... or this many entries (default 10,000).
    public var dictionaryEntryLimit: Int = 10_000
    /// A string column chunk whose smallest or largest value is longer than this many bytes gets
    /// no min/max statistics (its null count is still written). Default 4096.
    public var statisticsByteLimit: Int = 4096
    /// The footer's `created_by`; readers parse `<application> version <version>`.
    public var createdBy: String = "swift-parquet version 1.0.0"
    /// Footer key-value metadata written first; `finish(keyValueMetadata:)` appends its own.
    public var keyValueMetadata: [ParquetKeyValue] = []

    /// The defaults above.
    public init() {}

    /// Throws `invalidOption` naming the first limit out of range.
    func validate() throws(ParquetError) {
        let limits: [(String, Int, ClosedRange<Int>)] = [
            ("rowGroupByteLimit", rowGroupByteLimit, 1...Int(Int64.max)),
            ("rowGroupRowLimit", rowGroupRowLimit, 1...Int(Int32.max)),
            ("pageByteLimit", pageByteLimit, 1...(1 << 30)),
            ("pageRowLimit", pageRowLimit, 1...(1 << 30)),
            ("dictionaryByteLimit", dictionaryByteLimit, 0...(1 << 30)),
            ("dictionaryEntryLimit", dictionaryEntryLimit, 0...(1 << 30)),
            ("statisticsByteLimit", statisticsByteLimit, 0...(1 << 30)),
        ]
        for (name, value, range) in limits where !range.contains(value) {
            throw ParquetError(.invalidOption, "\(name) is \(value); it must be within \(range.lowerBound)...\(range.upperBound)")
        }
    }
}
