/// An open-addressing hash table (linear probing) from 64-bit keys that are hashes already
/// (FNV-1a of ids and streams) to one non-zero 64-bit value each: the in-memory index of the
/// records a handle appended or scanned past its index files (`EventLog.RecentEntries`). A value
/// of 0 marks a free slot (no record starts at offset 0 of a segment, and positions in an entry
/// list are stored plus one). Swift's `Dictionary` would hash the hashes again (SipHash) on every
/// lookup; this table only mixes their bits.
struct LocationTable {
    /// Key and value side by side (one cache line read per probe).
    private var slots: [(key: UInt64, value: UInt64)] = []
    private var shift: UInt64 = 64
    /// The keys held.
    private(set) var count = 0

    @inline(__always) private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The value of `key`, or nil.
    subscript(key: UInt64) -> UInt64? {
        guard count > 0 else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var i = home(key)
            while true {
                let slot = slots[i]
                if slot.value == 0 { return nil }
                if slot.key == key { return slot.value }
                i = (i + 1) & mask
            }
        }
    }

    /// Sets `key` to `value` (not 0); returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: UInt64, forKey key: UInt64) -> UInt64? {
        precondition(value != 0, "0 marks a free slot")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let home = home(key)
        let replaced = slots.withUnsafeMutableBufferPointer { slots -> UInt64? in
            let mask = slots.count - 1
            var i = home
            while true {
                let v = slots[i].value
                if v == 0 {
                    slots[i] = (key, value)
                    return nil
                }
                if slots[i].key == key {
                    slots[i].value = value
                    return v
                }
                i = (i + 1) & mask
            }
        }
        if replaced == nil { count += 1 }
        return replaced
    }

    /// Every key and its value, in no particular order.
    func forEach(_ body: (UInt64, UInt64) throws -> Void) rethrows {
        for slot in slots where slot.value != 0 { try body(slot.key, slot.value) }
    }

    private mutating func grow() {
        let old = slots
        let capacity = max(1024, slots.count * 2)
        slots = Array(repeating: (0, 0), count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for slot in old where slot.value != 0 { updateValue(slot.value, forKey: slot.key) }
    }
}
