import Testing
import TestKit
import LedgerFixture
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The edges of `diff` from the event cache: an event at the very instant asked, a transfer its
/// recipient refuses while their own subscription runs, and two senders handing subscriptions to
/// one recipient from different partitions (the first in id order is the one received).
@Suite struct StreamedRuleDiffEdges {
    static func purchase(_ id: String, _ user: String, _ time: String, _ t: String, expires: String) -> String {
        #"{"id":"\#(id)","type":"purchase","user":"\#(user)","time":"\#(time)","data":{"product":"handz.pro.monthly","transaction":"\#(t)","expires":"\#(expires)","price":"9.99","currency":"USD"}}"#
    }
    static func transfer(_ id: String, _ user: String, _ time: String, to: String) -> String {
        #"{"id":"\#(id)","type":"transfer","user":"\#(user)","time":"\#(time)","data":{"to":"\#(to)"}}"#
    }
    static func billingIssue(_ id: String, _ user: String, _ time: String) -> String {
        #"{"id":"\#(id)","type":"billing_issue","user":"\#(user)","time":"\#(time)"}"#
    }

    /// Two sender ids, the first before the second in id order but folded in a later partition of two.
    static let senders: (first: String, second: String) = {
        func partition(_ user: String) -> Int { Array(user.utf8).withUnsafeBytes { Replay.partition(of: $0, count: 2) } }
        let names = ["amy", "bea", "cal", "dee", "eli", "flo", "gil", "hut", "ivo", "jon", "kai", "lou"]
        for x in names { for y in names where x < y && partition(x) > partition(y) { return (x, y) } }
        fatalError("no two names in reversed partitions")
    }()

    /// lena's billing issue starts a grace of 3 or 7 days at its instant; rory's own subscription
    /// is in its billing grace when sam's transfer comes (refused under both rule sets); tia is
    /// handed the first sender's subscription (runs to 20 March) and refuses the second's (lapses on
    /// 1 March at 10:00, so an hour's unverified grace against a day's would make her differ).
    static let story: [String] = {
        let (first, second) = senders
        return [
            purchase("l1", "lena", "2026-02-01T10:00:00Z", "tl", expires: "2026-03-01T10:00:00Z"),
            billingIssue("l2", "lena", "2026-02-28T09:00:00Z"),
            purchase("r1", "rory", "2026-02-02T10:00:00Z", "tr", expires: "2026-03-02T10:00:00Z"),
            billingIssue("r2", "rory", "2026-03-01T08:00:00Z"),
            purchase("s1", "sam", "2026-02-03T10:00:00Z", "ts", expires: "2026-03-03T10:00:00Z"),
            transfer("s2", "sam", "2026-03-01T09:00:00Z", to: "rory"),
            purchase("x1", second, "2026-02-01T10:00:00Z", "tx", expires: "2026-03-01T10:00:00Z"),
            transfer("x2", second, "2026-02-10T12:00:00Z", to: "tia"),
            purchase("y1", first, "2026-02-20T10:00:00Z", "ty", expires: "2026-03-20T10:00:00Z"),
            transfer("y2", first, "2026-02-25T12:00:00Z", to: "tia"),
        ]
    }()

    @Test func atEveryEventsOwnInstantAndAfterItTheStreamedDiffIsTheTwoSnapshotsDiff() throws {
        let log = try TestLog(Self.story)
        _ = try Replay.buildEventCache(directory: log.path)
        let instants = ["2026-02-01T10:00:00Z", "2026-02-28T09:00:00Z", "2026-03-01T08:00:00Z", "2026-03-01T09:00:00Z",
                        "2026-03-01T10:00:00Z", "2026-03-01T12:00:00Z", "2026-03-04T12:00:00Z"].map { Timestamp.parse($0)! }
        for at in instants {
            for (name, other) in StreamedRuleDiffs.rules {
                for partitions in 1...3 {
                    let streamed = try #require(try RuleDiff.streamed(directory: log.path, a: .handz, b: other, asOf: at, partitions: partitions))
                    let expected = try StreamedRuleDiffs.fromSnapshots(log, .handz, other, at: at, partitions: 1)
                    #expect(streamed == expected, "\(name) at \(at), \(partitions) partitions, senders \(Self.senders)")
                }
            }
        }
    }

    @Test func theUsersThatDifferAreTheOnesTheirOwnEventsAndTheTransfersTheyReceivedMakeDiffer() throws {
        let log = try TestLog(Self.story)
        _ = try Replay.buildEventCache(directory: log.path)
        func users(_ other: Profile, at: String) throws -> [String] {
            try #require(try RuleDiff.streamed(directory: log.path, a: .handz, b: other, asOf: Timestamp.parse(at)!, partitions: 2)).map(\.user)
        }
        // A billing issue differs from its own instant on (3 days' grace against 7).
        #expect(try users(StreamedRuleDiffs.rules[0].1, at: "2026-02-28T09:00:00Z") == ["lena"])
        // rory keeps his own subscription in its grace (sam's refused) and differs for it.
        #expect(try users(StreamedRuleDiffs.rules[0].1, at: "2026-03-01T09:00:00Z") == ["lena", "rory"])
        // tia holds the first sender's subscription, running under both: she does not differ.
        #expect(try users(StreamedRuleDiffs.rules[1].1, at: "2026-03-01T12:00:00Z") == ["lena", "rory"], "senders \(Self.senders)")
    }
}
