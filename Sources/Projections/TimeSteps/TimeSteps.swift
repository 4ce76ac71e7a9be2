/// Per `TimeKey` (in key order), the instants at which a sum over users changes and the sum from
/// each of them on: a step function per key. The time index keeps two (TimeIndex.swift): the
/// base, built from every user, and the overlay, the differences of the users touched since.
package struct TimeSteps: Sendable, Equatable {
    /// The keys, in order; key k's instants and sums are `times[starts[k]..<starts[k + 1]]`.
    package var keys: [TimeKey] = []
    package var starts: [Int] = [0]
    package var times: [Int64] = []
    package var sums: [Int64] = []

    package init() {}

    /// The number of (key, instant) steps held.
    package var count: Int { times.count }

    /// Key k's sum as of instant `t` (its changes at or before `t`); with `before`, strictly before `t`.
    package func value(_ k: Int, at target: Int64, before: Bool) -> Int64 {
        var lo = starts[k], hi = starts[k + 1]
        // The first step after the target (or at it, `before`).
        while lo < hi {
            let mid = (lo + hi) / 2
            if before ? times[mid] < target : times[mid] <= target { lo = mid + 1 } else { hi = mid }
        }
        return lo == starts[k] ? 0 : sums[lo - 1]
    }

    /// Calls `emit` with each step as a difference: (key, instant, change from the step before).
    package func forEachDelta(_ emit: (TimeKey, Int64, Int64) -> Void) {
        for k in keys.indices {
            var previous: Int64 = 0
            for i in starts[k]..<starts[k + 1] {
                emit(keys[k], times[i], sums[i] &- previous)
                previous = sums[i]
            }
        }
    }

    /// Appends a step of the last key appended, unless the sum is the one already in force.
    package mutating func appendStep(_ time: Int64, _ sum: Int64) {
        let first = starts[starts.count - 1]
        if times.count > first, times[times.count - 1] == time {
            sums[sums.count - 1] = sum
            if times.count - 1 == first ? sum == 0 : sums[sums.count - 2] == sum {
                times.removeLast()
                sums.removeLast()
            }
            return
        }
        guard sum != (times.count > first ? sums[sums.count - 1] : 0) else { return }
        times.append(time)
        sums.append(sum)
    }

    /// Closes the key being appended: kept if it has a step, dropped otherwise.
    package mutating func closeKey(_ key: TimeKey) {
        guard times.count > starts[starts.count - 1] else { return }
        keys.append(key)
        starts.append(times.count)
    }

    /// The steps of `a` then those of `b`, whose keys all come after `a`'s (appended to `a`'s
    /// arrays, in place when they are held nowhere else and have the room).
    package static func concatenated(_ a: consuming TimeSteps, _ b: borrowing TimeSteps) -> TimeSteps {
        var out = a
        let before = out.times.count
        out.keys += b.keys
        out.starts += b.starts.dropFirst().map { $0 + before }
        out.times += b.times
        out.sums += b.sums
        return out
    }

    /// The pointwise sum of two step functions (keys of either), without steps that change nothing.
    package static func merged(_ a: TimeSteps, _ b: TimeSteps) -> TimeSteps {
        var out = TimeSteps()
        out.times.reserveCapacity(a.count + b.count)
        out.sums.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.keys.count || j < b.keys.count {
            let key: TimeKey
            var ra = 0..<0, rb = 0..<0
            if j == b.keys.count || (i < a.keys.count && a.keys[i] < b.keys[j]) {
                key = a.keys[i]; ra = a.starts[i]..<a.starts[i + 1]; i += 1
            } else if i == a.keys.count || b.keys[j] < a.keys[i] {
                key = b.keys[j]; rb = b.starts[j]..<b.starts[j + 1]; j += 1
            } else {
                key = a.keys[i]; ra = a.starts[i]..<a.starts[i + 1]; rb = b.starts[j]..<b.starts[j + 1]; i += 1; j += 1
            }
            var p = ra.lowerBound, q = rb.lowerBound
            var sa: Int64 = 0, sb: Int64 = 0
            while p < ra.upperBound || q < rb.upperBound {
                let t = min(p < ra.upperBound ? a.times[p] : .max, q < rb.upperBound ? b.times[q] : .max)
                if p < ra.upperBound, a.times[p] == t { sa = a.sums[p]; p += 1 }
                if q < rb.upperBound, b.times[q] == t { sb = b.sums[q]; q += 1 }
                out.appendStep(t, sa &+ sb)
            }
            out.closeKey(key)
        }
        return out
    }
}
