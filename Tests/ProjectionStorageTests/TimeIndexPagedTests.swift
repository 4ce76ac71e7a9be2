import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections
@testable import ProjectionStorage

/// A stored base is read in blocks (PagedSteps.swift): whatever its block size, every lookup
/// (at, and strictly before, every step's instant, its neighbours and random instants) gives
/// what the built index in memory gives, and the reports at random instants, windows and series
/// equal a full fold's.
@Suite struct TimeIndexPagedReads {
    @Test func aBaseStoredInBlocksOfAnySizeAnswersEveryLookupAsTheBuiltIndex() throws {
        for seed: UInt64 in [2, 13] {
            var rng = SplitMix64(seed: seed)
            let log = try TestLog(Array(ReportSummaries.base.prefix(700)))
            try ReportSummaries.append(TimeIndexUpdates.lines(&rng, round: 0, count: 120, sent: []), to: log)
            let store = ProjectionStore(logDirectory: log.path, profile: .handz)
            let built = try TimeIndex.build(directory: log.path, profile: .handz, fingerprint: store.fingerprint, partitions: 2)
            let steps = try built.memoryBase()
            for blockSteps in [1, 2, 3, 7, 64, 256, 1000] {
                // Written in two halves of its keys on two cores, split anywhere: the bytes one thread writes.
                try built.write(path: store.timeIndexPath, blockSteps: blockSteps, splittingFrom: .max)
                let whole = try #require(FileManager.default.contents(atPath: store.timeIndexPath))
                for splittingFrom in [0, 1, 5_000] {
                    try built.write(path: store.timeIndexPath, blockSteps: blockSteps, splittingFrom: splittingFrom)
                    #expect(FileManager.default.contents(atPath: store.timeIndexPath) == whole,
                            "seed \(seed) blocks of \(blockSteps), split from \(splittingFrom) bytes: not the bytes one thread writes")
                }
                let paged = try #require(try TimeIndex.read(path: store.timeIndexPath))
                guard case .paged = paged.base else {
                    Issue.record("seed \(seed) blocks of \(blockSteps): a stored base is read in blocks")
                    continue
                }
                #expect(paged.keys == built.keys && paged.stepCount == built.stepCount, "seed \(seed) blocks of \(blockSteps)")
                var mismatches = 0
                for k in built.keys.indices {
                    var instants = steps.times[steps.starts[k]..<steps.starts[k + 1]].flatMap { [$0 - 1, $0, $0 + 1] }
                    instants += (0..<20).map { _ in TimeIndexes.randomInstant(&rng).nanoseconds }
                    for t in instants {
                        for before in [false, true] {
                            let at = Timestamp(nanoseconds: t)
                            if try paged.value(k, at: at, before: before) != built.value(k, at: at, before: before) { mismatches += 1 }
                        }
                    }
                }
                #expect(mismatches == 0, "seed \(seed) blocks of \(blockSteps): \(mismatches) lookups differ from the built index")
                #expect(try paged.memoryBase() == steps, "seed \(seed) blocks of \(blockSteps): every block read back")
                if blockSteps == 3 { try TimeIndexes.expectSameAsFold(paged, log.path, seed: seed, round: blockSteps, &rng) }
            }
        }
    }
}
