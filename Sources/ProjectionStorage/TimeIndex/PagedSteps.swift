import Projections
import Foundation
import EventStore
import SubscriptionDomain
import Platform

/// A stored base's step functions read in blocks, only those a lookup needs: the key table and,
/// per key, the first instant of each block of `blockSteps` steps (the fences; the file names its
/// block size) are read and
/// checked (one CRC) when the file is opened; a lookup finds its block by the fences, reads it at
/// its offset, checks its own CRC and order, and searches it. Blocks read are kept for later
/// lookups. A block that fails its checks is `ProjectionReader.Unreadable` (the caller rebuilds).
final class PagedSteps: @unchecked Sendable {
    /// Steps per block written by default (the last block of a key may hold fewer); a block is
    /// 16 bytes a step and a CRC.
    static let defaultBlockSteps = 256
    /// The largest block size a file may name (a damaged one cannot ask for absurd reads).
    static let maximumBlockSteps = 1 << 16

    /// This file's steps per block.
    let blockSteps: Int

    let path: String
    private let file: RandomAccessFile
    let keys: [TimeKey]
    /// Per key, its step count, the index of its first fence in `fences`, and its first block's offset.
    private let counts: [Int]
    private let fenceStarts: [Int]
    private let offsets: [Int]
    private let fences: [Int64]
    private let lock = NSLock()
    private var blocks: [Int: [Int64]] = [:]

    init(path: String, file: RandomAccessFile, blockSteps: Int, keys: [TimeKey], counts: [Int], fences: [Int64], firstBlock: Int) {
        self.path = path
        self.blockSteps = blockSteps
        self.file = file
        self.keys = keys
        self.counts = counts
        self.fences = fences
        var starts: [Int] = [], offsets: [Int] = []
        var f = 0, offset = firstBlock
        for n in counts {
            starts.append(f)
            offsets.append(offset)
            f += Self.blockCount(n, blockSteps)
            offset += Self.bytes(steps: n, blockSteps)
        }
        fenceStarts = starts + [f]
        self.offsets = offsets
    }

    static func blockCount(_ steps: Int, _ blockSteps: Int) -> Int { (steps + blockSteps - 1) / blockSteps }

    /// The bytes `steps` steps of one key take: their blocks, each with its CRC.
    static func bytes(steps: Int, _ blockSteps: Int) -> Int { steps * 16 + blockCount(steps, blockSteps) * 4 }

    /// The number of steps held.
    var count: Int { counts.reduce(0, +) }

    /// Key k's sum as of instant `target` (its changes at or before it); with `before`, strictly before.
    func value(_ k: Int, at target: Int64, before: Bool) throws -> Int64 {
        // The last block whose first instant is at or before the target (strictly before, `before`).
        var lo = fenceStarts[k], hi = fenceStarts[k + 1]
        while lo < hi {
            let mid = (lo + hi) / 2
            if before ? fences[mid] < target : fences[mid] <= target { lo = mid + 1 } else { hi = mid }
        }
        guard lo > fenceStarts[k] else { return 0 }
        let block = try self.block(k, lo - 1 - fenceStarts[k])
        // Interleaved (instant, sum); the first step qualifies (its fence did).
        var a = 0, b = block.count / 2
        while a < b {
            let mid = (a + b) / 2
            if before ? block[2 * mid] < target : block[2 * mid] <= target { a = mid + 1 } else { b = mid }
        }
        return block[2 * (a - 1) + 1]
    }

    /// Block `b` of key `k`: its steps as (instant, sum) pairs, read and checked once.
    private func block(_ k: Int, _ b: Int) throws -> [Int64] {
        let g = fenceStarts[k] + b
        if let cached = lock.withLock({ blocks[g] }) { return cached }
        let steps = min(blockSteps, counts[k] - b * blockSteps)
        let offset = offsets[k] + b * (blockSteps * 16 + 4)
        let bytes = try file.read(at: offset, count: steps * 16 + 4)
        func unreadable(_ why: String) -> ProjectionReader.Unreadable {
            ProjectionReader.Unreadable(offset: offset, reason: "time index block \(b) of key \(k): \(why)")
        }
        guard bytes.count == steps * 16 + 4 else { throw unreadable("ends early") }
        let values = bytes.withUnsafeBytes { raw -> (UInt32, UInt32, [Int64]) in
            let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<(steps * 16)]))
            let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: steps * 16, as: UInt32.self))
            return (crc, stored, (0..<(2 * steps)).map { Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: Int64.self)) })
        }
        guard values.0 == values.1 else { throw unreadable("CRC mismatch") }
        let pairs = values.2
        guard pairs[0] == fences[g] else { throw unreadable("its first instant is not its fence") }
        for i in 1..<steps where pairs[2 * i] <= pairs[2 * (i - 1)] { throw unreadable("step instants out of order") }
        if g + 1 < fenceStarts[k + 1], pairs[2 * (steps - 1)] >= fences[g + 1] { throw unreadable("runs past the next block's fence") }
        lock.withLock { blocks[g] = pairs }
        return pairs
    }

    /// Every step, read and checked (a merge with the overlay needs them all).
    func loadAll() throws -> TimeSteps {
        var out = TimeSteps()
        out.times.reserveCapacity(count)
        out.sums.reserveCapacity(count)
        for k in keys.indices {
            for b in 0..<Self.blockCount(counts[k], blockSteps) {
                let pairs = try block(k, b)
                for i in stride(from: 0, to: pairs.count, by: 2) {
                    out.times.append(pairs[i])
                    out.sums.append(pairs[i + 1])
                }
                lock.withLock { blocks[fenceStarts[k] + b] = nil }
            }
            out.keys.append(keys[k])
            out.starts.append(out.times.count)
        }
        return out
    }
}
