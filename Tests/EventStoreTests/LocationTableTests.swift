import Testing
@testable import EventStore

/// The in-memory id and stream index is an open-addressing table of hashes (for bulk
/// import): after any sequence of updates it answers as a Dictionary does.
@Suite struct LocationTableModel {
    @Test func answersAsADictionaryAfterAnySequenceOfUpdates() {
        var table = LocationTable()
        var model: [UInt64: UInt64] = [:]
        var state: UInt64 = 99
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        for step in 0..<60_000 {
            let r = next()
            // Keys: spread hashes, small keys (one home), 0 and max, and repeats.
            let key: UInt64 = switch r % 5 {
            case 0: r >> 3
            case 1: r % 64
            case 2: r & 1 == 0 ? 0 : .max
            default: (r >> 20) % 5000
            }
            let value = next() | 1
            #expect(table.updateValue(value, forKey: key) == model.updateValue(value, forKey: key), "step \(step)")
            if step % 997 == 0 {
                for k in [key, r, 0, .max, 17] { #expect(table[k] == model[k]) }
            }
        }
        #expect(table.count == model.count)
        var seen: [UInt64: UInt64] = [:]
        table.forEach { k, v in seen[k] = v }
        #expect(seen == model)
    }
}
