extension IndexRun {
    /// Sorts entries by key, then value, as `sort()` does: one counting pass over the keys' top 16
    /// bits (the keys are hashes, so about evenly spread), a scatter into those 65,536 buckets,
    /// then each bucket sorted on its own. Any spread of keys sorts correctly; an uneven one only
    /// costs more (a single bucket is an ordinary sort).
    static func sort(_ entries: inout [Entry]) {
        let n = entries.count
        guard n > 1 << 14 else { entries.sort(); return }
        let buckets = 1 << 16
        var starts = [Int](repeating: 0, count: buckets + 1)
        for e in entries { starts[Int(e.key >> 48) + 1] += 1 }
        for b in 0..<buckets { starts[b + 1] += starts[b] }
        var next = starts
        let scattered = [Entry](unsafeUninitializedCapacity: n) { out, initialized in
            for e in entries {
                let b = Int(e.key >> 48)
                (out.baseAddress! + next[b]).initialize(to: e)
                next[b] += 1
            }
            for b in 0..<buckets where starts[b + 1] - starts[b] > 1 {
                var bucket = UnsafeMutableBufferPointer(rebasing: out[starts[b]..<starts[b + 1]])
                bucket.sort()
            }
            initialized = n
        }
        entries = scattered
    }
}
