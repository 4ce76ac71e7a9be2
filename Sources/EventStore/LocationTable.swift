/// An open-addressing hash table (linear probing) from 64-bit keys that are hashes already
/// (FNV-1a of ids and streams) to one non-zero 64-bit value each: the in-memory index of the
/// records a handle appended or scanned past its index files (`EventLog.RecentEntries`). A value
/// of 0 marks a free slot (no record starts at offset 0 of a segment, and positions in an entry
/// list are stored plus one). Swift's `Dictionary` would hash the hashes again (SipHash) on every
/// lookup; this table only mixes their bits.
struct LocationTable {
    private var keys: [UInt64] = []
    private var values: [UInt64] = []
    private var shift: UInt64 = 64
    /// The keys held.
    private(set) var count = 0

    @inline(__always) private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The value of `key`, or nil.
    subscript(key: UInt64) -> UInt64? {
        guard count > 0 else { return nil }
        let mask = keys.count - 1
        var i = home(key)
        while true {
            let v = values[i]
            if v == 0 { return nil }
            if keys[i] == key { return v }
            i = (i + 1) & mask
        }
    }

    /// Sets `key` to `value` (not 0); returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: UInt64, forKey key: UInt64) -> UInt64? {
        precondition(value != 0, "0 marks a free slot")
        if (count + 1) * 4 > keys.count * 3 { grow() }
        let mask = keys.count - 1
        var i = home(key)
        while true {
            let v = values[i]
            if v == 0 {
                keys[i] = key
                values[i] = value
                count += 1
                return nil
            }
            if keys[i] == key {
                values[i] = value
                return v
            }
            i = (i + 1) & mask
        }
    }

    /// Every key and its value, in no particular order.
    func forEach(_ body: (UInt64, UInt64) throws -> Void) rethrows {
        for i in keys.indices where values[i] != 0 { try body(keys[i], values[i]) }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let capacity = max(1024, keys.count * 2)
        keys = [UInt64](repeating: 0, count: capacity)
        values = [UInt64](repeating: 0, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for i in oldKeys.indices where oldValues[i] != 0 { updateValue(oldValues[i], forKey: oldKeys[i]) }
    }
}
