import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// Walks sharing the cache's users (`PartitionedWalk.run(shared: true)`) take them in runs, each
/// run as the next walk to reach it claims it: every user is walked once, by one walk, with the
/// events a partition's walk gives them, however many walks share them.
extension EventCaches {
    @Test func walksSharingTheUsersInRunsWalkEachUserOnceWithTheirEvents() throws {
        let log = try TestLog(PopulationGenerator(profile: .handz, users: 700, seed: 11).events().map { EventCodec.encode($0) }, batch: 250)
        let events = try EventLog(directory: log.path, access: .read)
        try EventCache.build(events)
        var byPartition: [String: [Event]] = [:]
        for p in 0..<2 {
            try PartitionedWalk.users(inCache: log.path, head: events.head, partition: p, of: 2) { byPartition[$0] = $1 }
        }
        // The users in the cache's order.
        var order: [String] = []
        var cache = try #require(EventCache.reader(log.path, head: events.head))
        while let user = try cache.nextUser(where: { _ in true }) {
            order.append(user)
            try cache.skipUser()
        }
        #expect(order.sorted() == byPartition.keys.sorted())
        for walks in [1, 2, 3] {
            let walked = try PartitionedWalk.run(directory: log.path, head: events.head, cached: true, partitions: walks, shared: true,
                                                 start: { [(String, [Event])]() }, add: { $0.append(($1, $2)) })
            let users = walked.flatMap { $0.map(\.0) }
            #expect(users.count == Set(users).count, "\(walks) walks: a user walked twice")
            #expect(users.sorted() == order.sorted(), "\(walks) walks: \(users.count) users walked of \(order.count)")
            #expect(walked.allSatisfy { $0.allSatisfy { byPartition[$0.0] == $0.1 } }, "\(walks) walks: a user's events differ")
            // Each walk's users are whole runs of the cache's order (the last one may be cut by the end).
            for w in walked {
                let places = w.map { order.firstIndex(of: $0.0)! }
                let runs = Set(places.map { $0 / PartitionedWalk.UserClaims.size })
                #expect(runs.allSatisfy { r in places.filter { $0 / PartitionedWalk.UserClaims.size == r }.count
                    == min(PartitionedWalk.UserClaims.size, order.count - r * PartitionedWalk.UserClaims.size) },
                        "\(walks) walks: a run was split between walks")
            }
        }
    }

    /// Walks from the cache are all or none: when one fails to read the cache, every partition is
    /// walked again from the log (as the log's partitions share the users out), none kept from the
    /// cache, and the cache is removed.
    @Test func whenOneWalkFailsToReadTheCacheEveryPartitionIsWalkedFromTheLog() throws {
        struct Unreadable: Error {}
        let log = try TestLog(PopulationGenerator(profile: .handz, users: 50, seed: 3).events().map { EventCodec.encode($0) })
        let events = try EventLog(directory: log.path, access: .read)
        try EventCache.build(events)
        for failing in 0..<3 {
            let walked = try PartitionedWalk.run(directory: log.path, head: events.head, cached: true, partitions: 3,
                                                 cache: { p in
                                                     if p == failing { throw Unreadable() }
                                                     return "cache \(p)"
                                                 },
                                                 log: { _, p in "log \(p)" })
            #expect(walked == ["log 0", "log 1", "log 2"], "partition \(failing) failing: \(walked)")
            #expect(!FileManager.default.fileExists(atPath: EventCache.path(log.path)), "partition \(failing) failing: the cache is removed")
            try EventCache.build(events)
        }
        let fromCache = try PartitionedWalk.run(directory: log.path, head: events.head, cached: true, partitions: 3,
                                                cache: { "cache \($0)" }, log: { _, p in "log \(p)" })
        #expect(fromCache == ["cache 0", "cache 1", "cache 2"])
    }
}
