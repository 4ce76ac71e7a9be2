import Foundation
import Platform
import Projections
import ProjectionStorage
import SubscriptionDomain

extension Common {
    /// The users whose plans differ under `pa` and `pb` as of `at`, over every `--log` (merged in
    /// user id order). From the event cache when it matches a log's head and the question is a
    /// plain one (no `--from`/`--to`, `--include-sandbox` or `--as-known-at`): each user folded
    /// under both rule sets side by side, no snapshot held (`RuleDiff.streamed`). Otherwise both
    /// snapshots are folded at the same time (each on the cores it gets) and compared.
    static func differences(_ a: ParsedArguments, _ pa: Profile, _ pb: Profile, at: Timestamp) throws -> [PlanDifference] {
        let plain = try time(a, "--from") == nil && time(a, "--to") == nil && !a.has("--include-sandbox")
        return RuleDiff.merging(try logDirectories(a).map { dir in
            try requireLog(dir)
            try checkApp(pa, directory: dir)
            try checkApp(pb, directory: dir)
            if plain, try knownThrough(a, directory: dir) == nil,
               let streamed = try RuleDiff.streamed(directory: dir, a: pa, b: pb, asOf: at, partitions: partitions) {
                return streamed
            }
            let (ra, rb) = try Parallel.both({ try replay(a, asOf: at, profile: pa, directory: dir) },
                                             { try replay(a, asOf: at, profile: pb, directory: dir) })
            return RuleDiff.compare(ra, rb)
        })
    }
}
