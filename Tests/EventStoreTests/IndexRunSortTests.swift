import Testing
@testable import EventStore

/// The index files' entries are sorted by buckets of their keys' top bits before they are written
/// (for bulk import): the order is exactly `sort()`'s whatever the keys' spread.
@Suite struct IndexRunSort {
    static func entries(_ n: Int, seed: UInt64, key: (UInt64) -> UInt64) -> [IndexRun.Entry] {
        var state = seed
        return (0..<n).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let k = key(state)
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return IndexRun.Entry(key: k, value: state >> 40)
        }
    }

    @Test func bucketSortGivesTheOrderOfSortForEvenSkewedAndRepeatedKeys() {
        let cases: [(String, [IndexRun.Entry])] = [
            ("spread hashes", Self.entries(100_000, seed: 1) { $0 }),
            ("one bucket", Self.entries(40_000, seed: 2) { $0 & 0xFFFF }),
            ("a few keys, many values each", Self.entries(40_000, seed: 3) { ($0 >> 60) << 48 | ($0 >> 62) }),
            ("small (plain sort)", Self.entries(1000, seed: 4) { $0 }),
            ("extremes", Self.entries(30_000, seed: 5) { $0 & 1 == 0 ? 0 : .max }),
        ]
        for (name, input) in cases {
            var sorted = input
            IndexRun.sort(&sorted)
            #expect(sorted == input.sorted(), "\(name)")
        }
    }
}

