import Foundation
import Testing
import TestKit
import SubscriptionDomain

/// `diff` answers from the event cache when it matches the log (each user folded under both rule
/// sets side by side), and from two snapshots without it: the same bytes either way.
@Suite struct DiffCommand {
    @Test func diffFromTheEventCachePrintsWhatTheTwoSnapshotsPrint() throws {
        let s = Scratch()
        let file = PartitionedLedger.population(s, users: 600, seed: 11)
        let log = s.path + "/single", grace7 = try PartitionedLedger.grace7(s)
        let cache = log + "/projections/events.cache"
        // Five days after four billing issues: in a 7-day billing grace, not in a 3-day one.
        let issues = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains(#""type":"billing_issue""#) }.prefix(4)
            .compactMap { Substring($0).json["time"] as? String }.compactMap(Timestamp.parse)
        #expect(issues.count == 4, "the population has billing issues")
        let inGrace = issues.map { ($0 + .days(5)).description }
        var differing = 0
        for at in inGrace + [PartitionedLedger.at] {
            for format in ["json", "table"] {
                let args = ["diff", "--log", log, "--profile", "handz", "--profile", grace7, "--at", at, "--format", format]
                try? FileManager.default.removeItem(atPath: cache)
                let fromSnapshots = PartitionedLedger.tool(args).out
                #expect(!FileManager.default.fileExists(atPath: cache), "diff builds no event cache")
                PartitionedLedger.tool(["cache", "--log", log])
                let fromCache = PartitionedLedger.tool(args).out
                #expect(fromCache == fromSnapshots, "at \(at), \(format)")
                if format == "json" { differing += fromCache.components(separatedBy: #""fields":"#).count - 1 }
            }
        }
        #expect(differing > 0, "a longer billing grace changes someone in this population")
    }
}
