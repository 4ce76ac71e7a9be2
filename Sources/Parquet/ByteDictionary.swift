/// The dictionary of a string column chunk: distinct UTF-8 byte strings (compared as bytes, not as
/// Swift `String`s, which would merge canonically equivalent spellings) in first-seen order, kept
/// PLAIN-encoded as the dictionary page's body, with an open-addressing index over them.
struct ByteDictionary {
    /// The outcome of looking a string up.
    enum Lookup {
        case existing(UInt32)
        /// A new entry; its bytes are `plain`'s range `bytes`.
        case added(UInt32, bytes: Range<Int>)
        /// New, but adding it would pass a limit: nothing was added.
        case full
    }

    /// The dictionary page body: each entry as a 4-byte length and its bytes.
    private(set) var plain = ByteBuffer()
    private var ranges: [Range<Int>] = []
    private var hashes: [Int] = []
    /// Entry index + 1 per slot, 0 for empty; the count is a power of two, at most half full.
    private var slots = [Int32](repeating: 0, count: 64)

    var count: Int { ranges.count }

    /// The entry index of `string`, adding it when new and the dictionary stays within
    /// `entryLimit` entries and `byteLimit` PLAIN bytes.
    mutating func lookUp(_ string: String, entryLimit: Int, byteLimit: Int) -> Lookup {
        let start = plain.count
        plain.appendLengthPrefixedUTF8(string)
        let range = (start + 4)..<plain.count
        let hash = plain.hash(range)
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let entry = Int(slots[slot]) - 1
            if hashes[entry] == hash && plain.equal(ranges[entry], range) {
                plain.truncate(to: start)
                return .existing(UInt32(entry))
            }
            slot = (slot + 1) & mask
        }
        guard ranges.count < entryLimit, plain.count <= byteLimit else {
            plain.truncate(to: start)
            return .full
        }
        let entry = ranges.count
        ranges.append(range)
        hashes.append(hash)
        slots[slot] = Int32(entry + 1)
        if ranges.count * 2 > slots.count { grow() }
        return .added(UInt32(entry), bytes: range)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (entry, hash) in hashes.enumerated() {
            var slot = hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry + 1)
        }
    }
}
