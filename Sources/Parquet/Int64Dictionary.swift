/// The dictionary of an INT64 column chunk (integers, timestamps, decimals): distinct values in
/// first-seen order, kept PLAIN-encoded as the dictionary page's body.
struct Int64Dictionary {
    /// The dictionary page body: 8 little-endian bytes per entry.
    private(set) var plain = ByteBuffer()
    private var indexes: [Int64: UInt32] = [:]

    var count: Int { indexes.count }

    /// The entry index of `value`, adding it when new and the dictionary stays within `entryLimit`
    /// entries and `byteLimit` bytes; nil when it would not.
    mutating func lookUp(_ value: Int64, entryLimit: Int, byteLimit: Int) -> UInt32? {
        if let index = indexes[value] { return index }
        guard indexes.count < entryLimit, plain.count + 8 <= byteLimit else { return nil }
        let index = UInt32(indexes.count)
        indexes[value] = index
        plain.appendLittleEndian(value)
        return index
    }
}
