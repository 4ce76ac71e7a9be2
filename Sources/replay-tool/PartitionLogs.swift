import Foundation
import EventStore
import Projections
import SubscriptionDomain

/// `--log` repeated: the logs are partitions of one ledger (disjoint users). Reports are made
/// per log and merged (Projections' `merging` functions); one user's questions go to the log
/// that holds the user.
extension Common {
    /// The `--log` folders (default `ledger`), each at most once. Logs that declare their
    /// partition (DIR/partition) must all declare one, of the same N, each a different p; for a
    /// report over several of them (`whole`), all N, so that no merged answer is silently partial.
    /// One partition's log alone answers for its own users (each machine for its partition).
    static func logDirectories(_ a: ParsedArguments, whole: Bool = true) throws -> [String] {
        let dirs = a.all("--log").isEmpty ? ["ledger"] : a.all("--log")
        var seen: [String: String] = [:]
        for d in dirs {
            if dirs.count > 1 { try requireLog(d) }
            let key = URL(fileURLWithPath: d).standardizedFileURL.resolvingSymlinksInPath().path
            if let first = seen[key] { throw ToolError.usage("--log \(d) names the same folder as --log \(first): give each partition once") }
            seen[key] = d
        }
        guard dirs.count > 1, whole, let declared = try declaredPartitions(dirs) else { return dirs }
        let held = Set(declared.map(\.index))
        if let missing = (0..<declared[0].count).first(where: { !held.contains($0) }) {
            let more = declared[0].count - held.count - 1
            throw ToolError.input("partition \(missing)/\(declared[0].count)\(more > 0 ? " and \(more) more" : "") not in the --log list: a report over part of the ledger would be partial (give every partition's log)")
        }
        return dirs
    }

    /// Each log's declared partition, or nil when none of them declares one; refuses a mix, two
    /// counts, or one partition twice.
    static func declaredPartitions(_ dirs: [String]) throws -> [StreamPartition]? {
        let declared = try dirs.map { try EventLog.declaredPartition(directory: $0) }
        guard declared.contains(where: { $0 != nil }) else { return nil }
        var byIndex: [Int: String] = [:]
        var result: [StreamPartition] = []
        for (d, p) in zip(dirs, declared) {
            guard let p else {
                throw ToolError.input("\(d) declares no partition, while \(dirs[declared.firstIndex { $0 != nil }!]) does: the logs are not partitions of one ledger")
            }
            guard p.count == result.first?.count ?? p.count else {
                throw ToolError.input("\(d) holds partition \(p), of another count than \(dirs[0])'s \(result[0]): the logs are not partitions of one ledger")
            }
            if let other = byIndex[p.index] { throw ToolError.input("\(d) and \(other) both hold partition \(p)") }
            byIndex[p.index] = d
            result.append(p)
        }
        return result
    }

    /// One report per `--log`, each from its own snapshot (made and dropped in turn).
    static func reports<R>(_ a: ParsedArguments, asOf: Timestamp, profile: Profile? = nil, _ make: (LedgerSnapshot) throws -> R) throws -> [R] {
        let dirs = try logDirectories(a)
        let profile = try profile ?? Common.profile(a.value("--profile"))
        return try dirs.map { try make(try replay(a, asOf: asOf, profile: profile, directory: $0)) }
    }

    /// The log that holds `user`: by Kafka's partitioner when the logs declare their partitions,
    /// else the first that has an event of the user (the first log when none has).
    static func userLog(_ a: ParsedArguments, user: String) throws -> String {
        let dirs = try logDirectories(a, whole: false)
        guard dirs.count > 1 else { return dirs[0] }
        if let declared = try declaredPartitions(dirs) {
            let p = KafkaPartitioner.partition(of: user, count: declared[0].count)
            guard let i = declared.firstIndex(where: { $0.index == p }) else {
                throw ToolError.input("user '\(user)' is in partition \(p)/\(declared[0].count), and no --log holds it")
            }
            return dirs[i]
        }
        for d in dirs where try openLog(a, directory: d).version(of: user) > 0 { return d }
        return dirs[0]
    }
}
