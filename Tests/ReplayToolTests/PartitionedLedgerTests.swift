import Foundation
import SubscriptionDomain
import Testing
import TestKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One ledger per Kafka partition. A generated population is split by Kafka's
/// partitioner into 1, 2, 4 and 8 partition logs; every report over the partitions (`--log`
/// repeated) is the single log's, byte for byte; one user's questions go to their partition; a
/// consumer that pauses, crashes and re-delivers loses and doubles nothing.
@Suite struct PartitionedLedger {
    static let now = "2026-06-01T00:00:00Z"
    static let at = "2026-05-01T00:00:00Z"

    /// Runs the tool at `now`; records an issue (with stderr) when the exit status is not `status`.
    @discardableResult
    static func tool(_ args: [String], status: Int32 = 0, stdin: String? = nil) -> ToolRun {
        let r = Tool.run(args, now: now, stdin: stdin)
        #expect(r.status == status, "replay-tool \(args.joined(separator: " ")): exit \(r.status): \(r.err)")
        return r
    }

    /// A generated population of `users` in scratch/all.jsonl, imported whole into scratch/single.
    static func population(_ s: Scratch, users: Int, seed: Int = 7) -> String {
        let file = s.path + "/all.jsonl"
        tool(["generate", "--users", "\(users)", "--seed", "\(seed)", "--out", file])
        tool(["import", "--log", s.path + "/single", file])
        return file
    }

    static func logs(_ dirs: [String]) -> [String] { dirs.flatMap { ["--log", $0] } }

    /// Every report's JSON over these logs: counts (all and a window), funnel (a window too),
    /// revenue, notifications, diff (billing grace 3 vs 7 days), and series of counts, revenue and funnel.
    static func reports(_ dirs: [String], grace7: String) -> [String: String] {
        let l = logs(dirs)
        let asked: [String: [String]] = [
            "counts": ["counts", "--at", at],
            "counts window": ["counts", "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"],
            "funnel": ["funnel", "--at", at],
            "funnel window": ["funnel", "--from", "2026-02-01T00:00:00Z", "--to", "2026-03-15T00:00:00Z"],
            "revenue": ["revenue", "--at", at],
            "revenue later": ["revenue", "--at", "2026-08-01T00:00:00Z"],
            "notifications": ["notifications", "--at", at],
            "diff": ["diff", "--profile", "handz", "--profile", grace7, "--at", at],
            // Series: each partition cut into the same buckets, from the earliest first event of all.
            "counts by week": ["counts", "--by", "week", "--at", at],
            "revenue by month": ["revenue", "--by", "month", "--at", at],
            "funnel by week": ["funnel", "--by", "week", "--from", "2026-02-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"],
        ]
        return asked.mapValues { tool($0 + l + ["--format", "json"]).out }
    }

    static func grace7(_ s: Scratch) throws -> String {
        let seven = Tool.run(["profiles", "show", "handz"]).out.replacingOccurrences(of: "\"billingGraceDays\" : 3", with: "\"billingGraceDays\" : 7")
        #expect(seven.contains("\"billingGraceDays\" : 7"))
        let path = s.path + "/grace7.json"
        try seven.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// N partition logs of `file`: by `import --partition p/N` of the whole file, or by
    /// `partition --of N` and an import of each file (which then skips nothing).
    static func partitionLogs(_ s: Scratch, file: String, count n: Int, viaFiles: Bool) -> [String] {
        let folder = s.path + "/n\(n)"
        if viaFiles { tool(["partition", "--of", "\(n)", "--out", folder, file]) }
        return (0..<n).map { p in
            let log = folder + "/p\(p)"
            let input = viaFiles ? folder + "/partition-" + String(repeating: "0", count: String(n - 1).count - String(p).count) + "\(p).jsonl" : file
            let r = tool(["import", "--log", log, "--partition", "\(p)/\(n)", "--format", "json", input])
            if viaFiles { #expect(Substring(r.out).json["skipped"] as? Int == 0, "partition --of \(n) put a line of another partition in file \(p)") }
            return log
        }
    }

    @Test(.timeLimit(.minutes(5))) func everyReportOverPartitionLogsEqualsTheSingleLogsByteForByte() throws {
        let s = Scratch()
        let file = Self.population(s, users: 1200)
        let grace7 = try Self.grace7(s)
        let single = Self.reports([s.path + "/single"], grace7: grace7)
        // The population is not degenerate: each report has something in it.
        #expect(single["counts"]!.contains("\"trial_converted\":") && !single["counts"]!.contains("\"renewal\":0"))
        #expect(single["notifications"]! != "[]\n" && single["diff"]! != "[]\n")
        #expect(Substring(single["revenue"]!).json["churnedSubscribers"] as? Int ?? 0 > 0)
        for n in [1, 2, 4, 8] {
            let dirs = Self.partitionLogs(s, file: file, count: n, viaFiles: n >= 4)
            let merged = Self.reports(dirs, grace7: grace7)
            for (name, answer) in single.sorted(by: { $0.key < $1.key }) {
                #expect(merged[name] == answer, "\(name) over \(n) partitions differs from the single log's")
            }
            // Each partition alone answers differently (the merge is not a copy of one log's answer).
            if n > 1 { #expect(Self.reports([dirs[0]], grace7: grace7)["counts"] != single["counts"]) }
            // The HTML report over the partitions is the single log's page but for the logs and their heads.
            if n == 4 {
                func page(_ dirs: [String], _ name: String) throws -> (all: String, figures: String) {
                    Self.tool(["report"] + Self.logs(dirs) + ["--profile", "handz", "--profile", grace7, "--at", Self.at, "--out", s.path + "/" + name])
                    let html = try String(contentsOfFile: s.path + "/" + name, encoding: .utf8)
                    return (html, html.split(separator: "\n").filter { !$0.contains("<dt>log") }.joined(separator: "\n"))
                }
                let one = try page([s.path + "/single"], "single.html"), merged = try page(dirs, "merged.html")
                #expect(merged.figures == one.figures && one.figures.contains("data-k=\"diff|count\""))
                #expect(merged.all.components(separatedBy: "<dt>log head</dt>").count == 5, "one head line per partition")
            }
        }
    }

    @Test(.timeLimit(.minutes(3))) func partitionFilesAndImportPartitionAgreeAndTheRestIsCountedAsSkipped() throws {
        let s = Scratch()
        let file = Self.population(s, users: 300)
        let total = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count
        let split = Tool.run(["partition", "--of", "3", "--out", s.path + "/files", "--format", "json", file], now: Self.now)
        #expect(split.status == 0)
        let parts = (Substring(split.out).json["partitions"] as? [[String: Any]]) ?? []
        #expect(parts.map { $0["partition"] as? Int } == [0, 1, 2])
        #expect(parts.compactMap { $0["events"] as? Int }.reduce(0, +) == total)
        for (p, part) in parts.enumerated() {
            let r = Self.tool(["import", "--log", s.path + "/p\(p)", "--partition", "\(p)/3", "--format", "json", file])
            let summary = Substring(r.out).json
            let own = part["events"] as? Int ?? -1
            #expect(summary["skipped"] as? Int == total - own && summary["skippedOtherPartitions"] as? Int == total - own)
            #expect((summary["appended"] as? Int ?? 0) + (summary["duplicates"] as? Int ?? 0) == own)
            // The partition file holds exactly the users the log took.
            let fileUsers = Set(try String(contentsOfFile: part["file"] as! String, encoding: .utf8).split(separator: "\n").map { Substring($0).json["user"] as! String })
            let logUsers = Set(Self.tool(["export", "--log", s.path + "/p\(p)"]).out.split(separator: "\n").map { $0.json["user"] as! String })
            #expect(fileUsers == logUsers && !logUsers.isEmpty)
            #expect(try String(contentsOfFile: s.path + "/p\(p)/partition", encoding: .utf8) == "kafka-murmur2 \(p)/3\n")
        }
        // The table summary names them too.
        let table = Self.tool(["import", "--log", s.path + "/p0", "--partition", "0/3", file])
        #expect(table.out.contains("skipped \(total - (parts[0]["events"] as? Int ?? 0)) (other partitions"))
        // `import --follow` acknowledges the lines of other partitions as skipped.
        let f = try Follower(log: s.path + "/follow", scratch: s, arguments: ["--partition", "1/2"])
        defer { f.kill() }
        let lines = (0..<40).map { FollowImport.line("f\($0)", user: "user-\($0)") }
        let inside = (0..<40).filter { KafkaVectors.partition(of: "user-\($0)", count: 2) == 1 }.count
        f.send(lines.joined(separator: "\n") + "\n")
        f.closeInput()
        #expect(f.wait().status == 0)
        let acks = f.restOfAcks()
        #expect(acks.map(\.appended).reduce(0, +) == inside && acks.map(\.skipped).reduce(0, +) == 40 - inside)
        #expect(inside > 0 && inside < 40)
    }

    @Test(.timeLimit(.minutes(3))) func stateAndHistoryGoStraightToTheUsersPartition() throws {
        let s = Scratch()
        let file = Self.population(s, users: 400)
        let declared = Self.partitionLogs(s, file: file, count: 4, viaFiles: true)
        // The same files imported without --partition: logs that declare nothing (found by lookup).
        let plain = (0..<4).map { p in
            let log = s.path + "/plain\(p)"
            Self.tool(["import", "--log", log, s.path + "/n4/partition-\(p).jsonl"])
            return log
        }
        #expect(!FileManager.default.fileExists(atPath: plain[0] + "/partition"))
        let users = Self.tool(["export", "--log", s.path + "/single"]).out.split(separator: "\n").map { $0.json["user"] as! String }
        var picked = Array(Set(users)).sorted().prefix(5) + ["nobody-at-all"]
        picked.append(users.last!)
        /// The answer without log positions (each log numbers its own records).
        func answer(_ command: String, _ dirs: [String], _ user: String) -> String {
            let out = Self.tool([command] + Self.logs(dirs) + ["--user", user, "--at", Self.at, "--format", "json"]).out
            return out.replacing(#/"position":\d+,/#, with: "")
        }
        for user in picked {
            for command in ["state", "history"] {
                let one = answer(command, [s.path + "/single"], user)
                #expect(answer(command, declared, user) == one, "\(command) \(user), declared")
                #expect(answer(command, plain, user) == one, "\(command) \(user), looked up")
                // Asked of the wrong partition alone, a known user's history is empty: the routing matters.
                if command == "history" && user != "nobody-at-all" {
                    let home = KafkaVectors.partition(of: user, count: 4)
                    #expect(answer(command, [declared[(home + 1) % 4]], user) == "[]\n")
                }
            }
        }
        // A user whose partition no --log holds is named, not answered as a guest.
        let missing = try #require(users.first { KafkaVectors.partition(of: $0, count: 4) == 3 })
        let r = Self.tool(["state"] + Self.logs(Array(declared.prefix(3))) + ["--user", missing], status: 1)
        #expect(r.err.contains("partition 3/4"))
        // A report over three of the four partitions would be partial: refused, naming what is missing.
        let partial = Self.tool(["counts"] + Self.logs(Array(declared.prefix(3))) + ["--at", Self.at], status: 1)
        #expect(partial.err.contains("partition 3/4 not in the --log list"), "\(partial.err)")
        Self.tool(["report"] + Self.logs([declared[0], declared[2]]) + ["--out", s.path + "/partial.html"], status: 1)
        // One partition's log alone answers for its own users.
        Self.tool(["counts", "--log", declared[0], "--at", Self.at])
        // A folder of the list that holds no log is named as such.
        #expect(Self.tool(["counts"] + Self.logs([declared[0], s.path + "/nowhere"]), status: 1).err.contains("nowhere: no log here"))
    }

    @Test func partitionsAreCheckedAtTheDoorAndALogKeepsItsPartition() throws {
        let s = Scratch()
        let line = FollowImport.line("a", user: "u") + "\n"
        for bad in ["4/4", "1/0", "0/10001", "x", "1/2/3", "-1/2", "1/ 2"] {
            let r = Self.tool(["import", "--log", s.log, "--partition", bad, "-"], status: 2, stdin: line)
            #expect(r.err.contains("--partition"), "\(bad): \(r.err)")
        }
        for bad in ["0", "10001", "-3", "two"] { Self.tool(["partition", "--of", bad, "-"], status: 2, stdin: line) }
        Self.tool(["partition", "-"], status: 2, stdin: line)
        // A bad line is named, kept verbatim and left out of every file; the good lines go on, verbatim.
        let good = FollowImport.line("g", user: "someone") + "\r\n" + FollowImport.line("h", user: "u")
        let split = Self.tool(["partition", "--of", "2", "--out", s.path + "/split", "--format", "json", "-"], status: 1,
                              stdin: good.replacingOccurrences(of: "\r\n", with: "\r\n{\"id\":\"bad\"}\n") + "\n")
        #expect(split.err.contains("<stdin>:2: "))
        #expect(Substring(split.out).json["rejected"] as? Int == 1)
        let files = (0..<2).map { (try? String(contentsOfFile: s.path + "/split/partition-\($0).jsonl", encoding: .utf8)) ?? "" }
        #expect(files.joined().utf8.split(separator: 0x0A).count == 2 && !files.joined().contains("bad"))
        #expect(files[KafkaVectors.partition(of: "someone", count: 2)].contains(FollowImport.line("g", user: "someone") + "\r\n"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: s.path + "/split/rejected").filter { $0.hasSuffix(".jsonl") }
        #expect(kept.count == 1 && (try? String(contentsOfFile: s.path + "/split/rejected/" + kept[0], encoding: .utf8)) == "{\"id\":\"bad\"}\n")
        #expect(!FileManager.default.fileExists(atPath: s.log), "a refused import made the log")
        let p = KafkaVectors.partition(of: "u", count: 2)
        Self.tool(["import", "--log", s.log, "--partition", "\(p)/2", "-"], stdin: line)
        // A partition log takes imports of its own partition only.
        #expect(Self.tool(["import", "--log", s.log, "-"], status: 2, stdin: line).err.contains("--partition \(p)/2"))
        Self.tool(["import", "--log", s.log, "--partition", "\(1 - p)/2", "-"], status: 2, stdin: line)
        Self.tool(["import", "--log", s.log, "--partition", "\(p)/4", "-"], status: 2, stdin: line)
        Self.tool(["import", "--log", s.log, "--partition", "\(p)/2", "-"], stdin: line)
        // A log that holds a user of another partition cannot become a partition.
        let mixed = s.path + "/mixed"
        Self.tool(["import", "--log", mixed, "-"], stdin: line + FollowImport.line("b", user: "someone-else") + "\n")
        let twoPartitions = KafkaVectors.partition(of: "someone-else", count: 2) != p
        if twoPartitions { Self.tool(["import", "--log", mixed, "--partition", "\(p)/2", "-"], status: 2, stdin: line) }
        // --log repeated: each folder once, all declared or none, one N, each p once.
        Self.tool(["counts", "--log", s.log, "--log", s.log + "/"], status: 2)
        Self.tool(["counts", "--log", s.log, "--log", mixed], status: 1)
        let other = s.path + "/other"
        Self.tool(["import", "--log", other, "--partition", "\(p)/3", "-"], stdin: "")
        Self.tool(["counts", "--log", s.log, "--log", other], status: 1)
        let twin = s.path + "/twin"
        Self.tool(["import", "--log", twin, "--partition", "\(p)/2", "-"], stdin: "")
        Self.tool(["counts", "--log", s.log, "--log", twin], status: 1)
        #expect(Self.tool(["verify", "--log", s.log]).status == 0)
    }

    /// The consumer of one Kafka partition: delivers its lines in pieces with pauses to
    /// `import --follow - --partition p/N`, commits its offset only after an acknowledgment
    /// covers the piece, crashes once (the importer is SIGKILLed after a piece whose
    /// acknowledgment it did not read) and restarts from the committed offset, re-delivering what
    /// may already be in; and re-delivers one piece twice, as a consumer that took over the
    /// partition from an older commit does. Returns the duplicates the acknowledgments counted.
    static func consume(_ lines: [Substring], into log: String, partition: String, scratch s: Scratch, seed: UInt64) throws -> Int {
        var rng = TestKit.SplitMix64(seed: seed)
        var committed = 0            // the offset: every line before it is acknowledged
        var next = 0
        var follower = try Follower(log: log, scratch: s, arguments: ["--partition", partition])
        defer { follower.kill() }
        var crashed = false, redelivered = false
        var duplicates = 0
        func send(_ piece: Range<Int>) { follower.send(lines[piece].joined(separator: "\n") + "\n") }
        while next < lines.count {
            let piece = next..<min(lines.count, next + 1 + Int(rng.next() % 40))
            send(piece)
            if !crashed && piece.upperBound > lines.count / 3 {
                crashed = true
                Thread.sleep(forTimeInterval: Double(rng.next() % 10) / 1000)   // committed or not: either way
                follower.kill()
                follower = try Follower(log: log, scratch: s, arguments: ["--partition", partition])
                next = committed
                continue
            }
            if !redelivered && piece.upperBound > 2 * lines.count / 3 {
                redelivered = true
                send(piece)
            }
            while true {
                guard let ack = follower.nextAck() else {
                    Issue.record("no acknowledgment of line \(follower.linesSent) before the follower exited (stderr: \(follower.errors))")
                    return duplicates
                }
                #expect(ack.rejected == 0 && ack.skipped == 0)
                duplicates += ack.duplicates
                if ack.lines.upperBound >= follower.linesSent { break }
            }
            committed = piece.upperBound
            next = committed
            Thread.sleep(forTimeInterval: Double(rng.next() % 15) / 1000)
        }
        follower.closeInput()
        #expect(follower.wait().status == 0)
        for ack in follower.restOfAcks() { duplicates += ack.duplicates }
        #expect(crashed && redelivered)
        return duplicates
    }

    @Test(.timeLimit(.minutes(5))) func aConsumerThatPausesCrashesAndRedeliversLosesAndDoublesNothing() throws {
        let s = Scratch()
        let file = Self.population(s, users: 300, seed: 11)
        let n = 4
        Self.tool(["partition", "--of", "\(n)", "--out", s.path + "/topic", file])
        var dirs: [String] = []
        for p in 0..<n {
            let lines = try String(contentsOfFile: s.path + "/topic/partition-\(p).jsonl", encoding: .utf8).split(separator: "\n")
            let log = s.path + "/ledger-\(p)"
            let duplicates = try Self.consume(lines, into: log, partition: "\(p)/\(n)", scratch: s, seed: UInt64(p + 1))
            #expect(duplicates > 0, "partition \(p): nothing was re-delivered")
            // Every distinct id of the partition is in its log once.
            let ids = Self.tool(["export", "--log", log]).out.split(separator: "\n").map { $0.json["id"] as! String }
            #expect(ids.count == Set(ids).count, "partition \(p): an id went in twice")
            #expect(Set(ids) == Set(lines.map { $0.json["id"] as! String }), "partition \(p): an id was lost")
            #expect(Self.tool(["verify", "--log", log]).status == 0)
            dirs.append(log)
        }
        let grace7 = try Self.grace7(s)
        let single = Self.reports([s.path + "/single"], grace7: grace7)
        let merged = Self.reports(dirs, grace7: grace7)
        for (name, answer) in single { #expect(merged[name] == answer, "\(name) after the consumers differs from the single log's") }
    }
}

/// Kafka's partitioner, written again here from its definition so the tests check the tool
/// against an independent copy (and the copy against Kafka's vectors).
enum KafkaVectors {
    static func murmur2(_ key: String) -> Int32 {
        let data = Array(key.utf8)
        let m: UInt32 = 0x5bd1e995
        var h: UInt32 = 0x9747b28c ^ UInt32(data.count)
        var i = 0
        while i + 4 <= data.count {
            var k = UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16 | UInt32(data[i + 3]) << 24
            k = k &* m; k ^= k >> 24; k = k &* m
            h = h &* m; h ^= k
            i += 4
        }
        let rest = data[i...]
        if rest.count >= 3 { h ^= UInt32(data[i + 2]) << 16 }
        if rest.count >= 2 { h ^= UInt32(data[i + 1]) << 8 }
        if rest.count >= 1 { h ^= UInt32(data[i]); h = h &* m }
        h ^= h >> 13; h = h &* m; h ^= h >> 15
        return Int32(bitPattern: h)
    }

    static func partition(of key: String, count: Int) -> Int { Int(UInt32(bitPattern: murmur2(key)) & 0x7fffffff) % count }

    @Test static func theCopyMatchesKafkasVectors() {
        #expect(murmur2("21") == -973932308 && murmur2("foobar") == -790332482 && murmur2("abc") == 479470107)
        #expect(murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8") == -58897971)
    }
}
