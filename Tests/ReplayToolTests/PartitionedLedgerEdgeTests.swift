import Foundation
import Testing
import TestKit

/// Partition logs, small cases: the order of `--log` does not matter, the files of `partition --of N`
/// are named with N-1's digits, and the report over partition logs names each log's own head.
extension PartitionedLedger {
    /// Users of partition `p` of `n` (by the independent copy of Kafka's partitioner).
    static func users(in p: Int, of n: Int, _ count: Int) -> [String] {
        (0..<500).map { "user-\($0)" }.filter { KafkaVectors.partition(of: $0, count: n) == p }.prefix(count).map { $0 }
    }

    /// Two declared partition logs: partition 0 with three users' events, partition 1 with one.
    static func twoPartitionLogs(_ s: Scratch) -> [String] {
        let input = (users(in: 0, of: 2, 3) + users(in: 1, of: 2, 1)).enumerated().map { FollowImport.line("e\($0.offset)", user: $0.element) }.joined(separator: "\n") + "\n"
        return (0..<2).map { p in
            let log = s.path + "/p\(p)"
            tool(["import", "--log", log, "--partition", "\(p)/2", "-"], stdin: input)
            return log
        }
    }

    @Test func aUsersQuestionsGoToTheirPartitionWhateverTheOrderOfTheLogs() throws {
        let s = Scratch()
        let logs = Self.twoPartitionLogs(s)
        for user in Self.users(in: 0, of: 2, 3) + Self.users(in: 1, of: 2, 1) {
            let home = logs[KafkaVectors.partition(of: user, count: 2)]
            let alone = Self.tool(["history", "--log", home, "--user", user, "--format", "json"]).out
            #expect(alone != "[]\n", "\(user) has a history in its own log")
            for order in [logs, logs.reversed()] {
                #expect(Self.tool(["history"] + Self.logs(order) + ["--user", user, "--format", "json"]).out == alone, "\(user), logs \(order)")
            }
        }
    }

    @Test func logsDeclaringPartitionsOfDifferentCountsAreRefusedTogether() throws {
        let s = Scratch()
        // 0/2 and 1/3: no partition twice, but not one ledger's partitions.
        for (name, p) in [("a", "0/2"), ("b", "1/3")] { Self.tool(["import", "--log", s.path + "/" + name, "--partition", p, "-"], stdin: "") }
        let r = Self.tool(["counts", "--log", s.path + "/a", "--log", s.path + "/b"], status: 1)
        #expect(r.err.contains("another count"), "\(r.err)")
    }

    @Test func aPartitionDeclarationThatDoesNotReadIsRefusedByEveryCommandOnThatLogAlone() throws {
        let s = Scratch()
        let log = Self.twoPartitionLogs(s)[0]
        try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: log + "/partition"))
        let user = Self.users(in: 0, of: 2, 1)[0]
        for args in [["counts"], ["funnel"], ["revenue"], ["state", "--user", user], ["history", "--user", user], ["verify"], ["export"], ["cache"]] {
            let r = Self.tool([args[0], "--log", log] + args.dropFirst(), status: 1)
            #expect(r.err.contains("not a partition declaration") && r.err.contains(log + "/partition"), "\(args): \(r.err)")
        }
    }

    @Test func partitionFilesAreNumberedWithTheDigitsOfTheLastPartition() throws {
        let s = Scratch()
        let input = (0..<30).map { FollowImport.line("e\($0)", user: "user-\($0)") }.joined(separator: "\n") + "\n"
        for (n, names) in [(10, (0..<10).map { "partition-\($0).jsonl" }), (11, (0..<11).map { String(format: "partition-%02d.jsonl", $0) }),
                           (1, ["partition-0.jsonl"])] {
            let out = s.path + "/of\(n)"
            let r = Self.tool(["partition", "--of", "\(n)", "--out", out, "--format", "json", "-"], stdin: input)
            let files = (Substring(r.out).json["partitions"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String }
            #expect(files == names.map { out + "/" + $0 }, "--of \(n)")
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out)) == Set(names), "--of \(n)")
        }
    }

    @Test func theReportOverPartitionLogsNamesEachLogsOwnHead() throws {
        let s = Scratch()
        let logs = Self.twoPartitionLogs(s)
        let out = s.path + "/report.html"
        Self.tool(["report"] + Self.logs(logs) + ["--at", Self.at, "--out", out])
        let html = try String(contentsOfFile: out, encoding: .utf8)
        for log in logs {
            let verify = Self.tool(["verify", "--log", log]).out.split(separator: "\n")
            let position = verify.first { $0.hasPrefix("records:") }!.split(separator: " ")[1]
            let hash = verify.first { $0.hasPrefix("head hash:") }!.split(separator: " ").last!
            #expect(html.contains("<dt>log head</dt><dd>\(log): position \(position), hash <code>\(hash)</code></dd>"), "\(log)")
        }
    }
}
