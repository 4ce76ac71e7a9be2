import Foundation
import EventStore
import MemoryPrefetch

/// The index of a user table: the FNV-1a hash of a user id's UTF-8 bytes to the user's slot, in
/// one open-addressing table (linear probing, backward-shift removal). Lookups hash the bytes a
/// log record already holds, so the replay loop never builds a `String` or runs SipHash for a
/// user it has seen; a hash match is confirmed by comparing the stored id's bytes.
@usableFromInline struct UserIndex: Sendable {
    /// Per bucket: the hash with its low bit set (0 marks an empty bucket), and the slot.
    @usableFromInline var hashes: [UInt64]
    @usableFromInline var slots: [Int32]
    @usableFromInline private(set) var count = 0
    @usableFromInline var shift: UInt64

    @usableFromInline init(capacity: Int = 0) {
        var buckets = 16
        while buckets < capacity * 2 { buckets <<= 1 }
        hashes = Array(repeating: 0, count: buckets)
        slots = Array(repeating: 0, count: buckets)
        shift = UInt64(64 - buckets.trailingZeroBitCount)
    }

    /// The stored form of a user id's hash (never 0), from the id's FNV-1a hash.
    @inlinable static func hash(fnv: UInt64) -> UInt64 { fnv | 1 }

    /// The stored form of the hash of a user id given as UTF-8 bytes.
    @inlinable static func hash(_ user: UnsafeRawBufferPointer) -> UInt64 { hash(fnv: FNV1a.hash(user)) }

    /// The stored form of the hash of a user id.
    @inlinable static func hash(_ user: String) -> UInt64 {
        var user = user
        return user.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `id` (a user id, an event id) is the string whose UTF-8 bytes are `bytes`.
    @inlinable static func isID(_ id: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var id = id
        return id.withUTF8 { $0.count == bytes.count && (bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0) }
    }

    @inlinable func bucket(_ h: UInt64) -> Int {
        Int(truncatingIfNeeded: (h &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot of the user whose hash is `h`, confirmed by `isUser(slot)`.
    @inlinable func find(_ h: UInt64, isUser: (Int32) -> Bool) -> Int32? {
        let mask = hashes.count - 1
        var b = bucket(h)
        while true {
            let stored = hashes[b]
            if stored == 0 { return nil }
            if stored == h && isUser(slots[b]) { return slots[b] }
            b = (b + 1) & mask
        }
    }

    /// The index of the users whose hashes are `slotHashes`, in slot order. Each bucket is fetched
    /// from memory a few users ahead: inserted one by one, a million users waited on nearly every
    /// bucket (0.28 s of a 2.4 s rebuild).
    init(slotHashes: [UInt64]) {
        self.init(capacity: slotHashes.count)
        let ahead = 8
        for i in slotHashes.indices {
            if i + ahead < slotHashes.count {
                let b = bucket(slotHashes[i + ahead])
                hashes.withUnsafeBufferPointer { memory_prefetch_for_write($0.baseAddress! + b) }
                slots.withUnsafeBufferPointer { memory_prefetch_for_write($0.baseAddress! + b) }
            }
            insert(slotHashes[i], slot: Int32(i))
        }
    }

    /// Adds a user known to be absent.
    @usableFromInline mutating func insert(_ h: UInt64, slot: Int32) {
        if (count + 1) * 2 > hashes.count { grow() }
        let mask = hashes.count - 1
        var b = bucket(h)
        while hashes[b] != 0 { b = (b + 1) & mask }
        hashes[b] = h
        slots[b] = slot
        count += 1
    }

    /// Points the entry for slot `old` (hash `h`) at slot `new`.
    @usableFromInline mutating func move(_ h: UInt64, from old: Int32, to new: Int32) {
        guard let b = bucketHolding(h, old) else { return }
        slots[b] = new
    }

    /// Removes the entry for slot `slot` (hash `h`), shifting later entries of the run back.
    @usableFromInline mutating func remove(_ h: UInt64, slot: Int32) {
        guard var hole = bucketHolding(h, slot) else { return }
        let mask = hashes.count - 1
        var b = (hole + 1) & mask
        while hashes[b] != 0 {
            let home = bucket(hashes[b])
            // Move b into the hole if its home is not in the cyclic range (hole, b].
            if (b - home) & mask >= (b - hole) & mask {
                hashes[hole] = hashes[b]
                slots[hole] = slots[b]
                hole = b
            }
            b = (b + 1) & mask
        }
        hashes[hole] = 0
        count -= 1
    }

    private func bucketHolding(_ h: UInt64, _ slot: Int32) -> Int? {
        let mask = hashes.count - 1
        var b = bucket(h)
        while hashes[b] != 0 {
            if hashes[b] == h && slots[b] == slot { return b }
            b = (b + 1) & mask
        }
        return nil
    }

    private mutating func grow() {
        var bigger = UserIndex(capacity: hashes.count)
        for b in hashes.indices where hashes[b] != 0 { bigger.insert(hashes[b], slot: slots[b]) }
        self = bigger
    }
}
