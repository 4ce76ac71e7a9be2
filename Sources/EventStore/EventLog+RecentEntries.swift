extension EventLog {
    /// The index entries of records not yet in a run file (records after the covered head).
    struct RecentEntries {
        /// An id's hash → the location of the first record under it; the others (hash collisions,
        /// or the same id twice in a log written before dedupe) in `moreIDs`.
        var ids = LocationTable()
        var moreIDs: [UInt64: [UInt64]] = [:]
        /// A stream's hash → its newest entry in `streamEntries`, plus one.
        var streamHeads = LocationTable()
        /// Every record's stream entry, in the order added, each linked to the one before it under
        /// the same key (plus one; 0: none).
        var streamEntries: [(key: UInt64, value: UInt64, previous: Int)] = []
        var keys: [UInt64: [UInt64]] = [:]
        var count = 0

        /// Adds one record's entries.
        mutating func add(idHash: UInt64, streamHash: UInt64, keys: [String], value: UInt64) {
            if let first = ids.updateValue(value, forKey: idHash) {
                ids.updateValue(first, forKey: idHash)
                moreIDs[idHash, default: []].append(value)
            }
            let previous = streamHeads.updateValue(UInt64(streamEntries.count + 1), forKey: streamHash).map { Int($0) } ?? 0
            streamEntries.append((streamHash, value, previous))
            if keys.count == 1 {
                self.keys[FNV1a.hash(keys[0].utf8), default: []].append(value)
            } else if !keys.isEmpty {
                for key in Set(keys) { self.keys[FNV1a.hash(key.utf8), default: []].append(value) }
            }
            count += 1
        }

        /// The locations of a stream's entries, oldest first.
        func streamLocations(_ key: UInt64) -> [UInt64] {
            guard var next = streamHeads[key].map({ Int($0) }) else { return [] }
            var out: [UInt64] = []
            while next > 0 {
                let entry = streamEntries[next - 1]
                out.append(entry.value)
                next = entry.previous
            }
            return out.reversed()
        }
    }
}
