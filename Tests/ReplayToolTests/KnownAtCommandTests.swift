import Foundation
import Testing
import TestKit

/// `--as-known-at T` on the reports: a log that grew after T answers as a log holding only what
/// was recorded by T, byte for byte, for every report and form.
@Suite struct KnownAtCommands {
    static let now = "2026-06-01T00:00:00Z"

    @discardableResult
    static func tool(_ args: [String], now: String = now, status: Int32 = 0) -> ToolRun {
        Tool.expecting(status, args, now: now)
    }

    /// `grown`: the first part recorded on 2026-03-01, the rest on 2026-05-01; `early`: the first part only.
    static func logs(_ s: Scratch) -> (grown: String, early: String) {
        let file = s.path + "/all.jsonl"
        Self.tool(["generate", "--users", "250", "--seed", "29", "--out", file])
        let lines = (try? String(contentsOfFile: file, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(lines.count > 600)
        let cut = lines.count / 2
        FileManager.default.createFile(atPath: s.path + "/first.jsonl", contents: Data((lines[..<cut].joined(separator: "\n") + "\n").utf8))
        FileManager.default.createFile(atPath: s.path + "/second.jsonl", contents: Data((lines[cut...].joined(separator: "\n") + "\n").utf8))
        let (grown, early) = (s.path + "/grown", s.path + "/early")
        Self.tool(["import", "--log", grown, s.path + "/first.jsonl"], now: "2026-03-01T00:00:00Z")
        Self.tool(["import", "--log", grown, s.path + "/second.jsonl"], now: "2026-05-01T00:00:00Z")
        Self.tool(["import", "--log", early, s.path + "/first.jsonl"], now: "2026-03-01T00:00:00Z")
        return (grown, early)
    }

    @Test(.timeLimit(.minutes(5))) func everyReportAsKnownAtAnInstantIsTheReportOfTheLogItWasThen() throws {
        let s = Scratch()
        let (grown, early) = Self.logs(s)
        let asked: [[String]] = [
            ["counts"], ["counts", "--by", "month"], ["counts", "--from", "2026-02-01T00:00:00Z", "--to", "2026-05-01T00:00:00Z"],
            ["funnel", "--at", "2026-04-01T00:00:00Z"], ["funnel", "--by", "week"],
            ["revenue"], ["revenue", "--from", "2026-02-01T00:00:00Z"], ["revenue", "--by", "quarter"],
            ["revenue", "--by-segment", "offer"], ["counts", "--by-segment", "tier", "--by", "month"],
            ["notifications"], ["notifications", "--at", "2026-03-15T00:00:00Z"],
            ["metrics"], ["metrics", "--by", "month", "--by-segment", "offer"],
            ["users", "--where", "planState=pro"], ["users", "--at", "2026-04-01T00:00:00Z"],
        ]
        for args in asked {
            let known = Self.tool(args + ["--log", grown, "--format", "json", "--as-known-at", "2026-04-01T00:00:00Z"]).out
            let then = Self.tool(args + ["--log", early, "--format", "json"]).out
            let later = Self.tool(args + ["--log", grown, "--format", "json"]).out
            #expect(known == then, "\(args.joined(separator: " ")) as known at 2026-04-01")
            #expect(known != later || args[0] == "notifications", "\(args.joined(separator: " ")): the later records change the answer")
        }
        // As known at or after the last append: the answer of now.
        #expect(Self.tool(["revenue", "--log", grown, "--format", "json", "--as-known-at", "2026-05-01T00:00:00Z"]).out
                == Self.tool(["revenue", "--log", grown, "--format", "json"]).out)
        // The report names the head it read: the early log's.
        let page = Self.tool(["report", "--log", grown, "--as-known-at", "2026-04-01T00:00:00Z", "--out", "-"]).out
        let earlyPage = Self.tool(["report", "--log", early, "--out", "-"]).out
        // It says it is as known at T, and is otherwise the early log's page.
        let knownAtLine = "\n<dt>as known at</dt><dd><time>2026-04-01T00:00:00Z</time>: the log's records recorded by then (the head below is that prefix's)</dd>"
        let knownAtNote = ", with <code>--as-known-at <time>2026-04-01T00:00:00Z</time></code>"
        #expect(page.contains(knownAtLine) && page.contains(knownAtNote))
        #expect(page.replacingOccurrences(of: grown, with: early).replacingOccurrences(of: knownAtLine, with: "")
                    .replacingOccurrences(of: knownAtNote, with: "") == earlyPage)
        // Before anything was recorded: nothing.
        let none = Tool.json(Self.tool(["counts", "--log", grown, "--format", "json", "--as-known-at", "2026-01-01T00:00:00Z"]).out) as? [String: Int]
        #expect(none?.values.allSatisfy { $0 == 0 } == true && none?.isEmpty == false)
        Self.tool(["counts", "--log", grown, "--as-known-at", "yesterday-ish"], status: 2)
    }
}

/// `report --compare-known-at T`: each headline number then and now agrees with the reports'
/// JSON as known at T and now; the late records are those `export` shows recorded after T and in
/// effect by the instant; the users' changes add up to the difference.
@Suite struct CompareKnownAtCommands {
    static func tool(_ args: [String], status: Int32 = 0) -> ToolRun { KnownAtCommands.tool(args, status: status) }

    /// The value at a headline key (`revenue|/currencies[currency=USD]/gross`, `funnel|/steps/2/users`, `counts|/renewal`) of a report's JSON.
    static func value(_ key: String, in reports: [String: [String: Any]]) -> String? {
        let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
        var node: Any? = reports[parts[0]]
        for step in parts[1].split(separator: "/").map(String.init) {
            if let open = step.firstIndex(of: "[") {
                let name = String(step[..<open]), currency = String(step[step.index(open, offsetBy: 10)...].dropLast())
                node = ((node as? [String: Any])?[name] as? [[String: Any]])?.first { $0["currency"] as? String == currency }
            } else if let i = Int(step), let array = node as? [Any] {
                node = i < array.count ? array[i] : nil
            } else {
                node = (node as? [String: Any])?[step]
            }
        }
        switch node {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    static func reports(_ log: String, _ extra: [String]) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for name in ["counts", "funnel", "revenue"] {
            out[name] = Tool.json(Self.tool([name, "--log", log, "--format", "json", "--at", "2026-05-15T00:00:00Z"] + extra).out) as? [String: Any] ?? [:]
        }
        return out
    }

    @Test(.timeLimit(.minutes(5))) func eachHeadlineNumberThenAndNowIsTheReportsAndTheLateRecordsAreExportsAndAddUp() throws {
        let s = Scratch()
        let (grown, _) = KnownAtCommands.logs(s)
        let knownAt = "2026-04-01T00:00:00Z"
        let compared = Tool.json(Self.tool(["report", "--log", grown, "--at", "2026-05-15T00:00:00Z", "--compare-known-at", knownAt, "--format", "json"]).out) as? [String: Any] ?? [:]
        let figures = compared["figures"] as? [[String: Any]] ?? []
        #expect(figures.count > 30)
        let then = Self.reports(grown, ["--as-known-at", knownAt]), now = Self.reports(grown, [])
        var changed = 0
        for f in figures {
            let key = f["key"] as? String ?? ""
            let (a, b) = ("\(f["then"]!)", "\(f["now"]!)")
            #expect(Self.value(key, in: then).map { Double($0) } == Double(a), "\(key) as known at \(knownAt)")
            #expect(Self.value(key, in: now).map { Double($0) } == Double(b), "\(key) now")
            let d = Double("\(f["difference"]!)") ?? .nan
            #expect(abs(d - ((Double(b) ?? 0) - (Double(a) ?? 0))) < 1e-6, "\(key): difference")
            if a != b { changed += 1 }
        }
        #expect(changed > 10, "the late records change the headline numbers")
        // The late records: those recorded after T and in effect by the instant, as export prints them.
        let exported = Self.tool(["export", "--log", grown]).out.split(separator: "\n").compactMap { Tool.json(String($0)) as? [String: Any] }
        let late = exported.filter { ($0["recorded"] as? String ?? "") > knownAt && ($0["time"] as? String ?? "") <= "2026-05-15T00:00:00Z" }
        #expect(compared["lateRecords"] as? Int == late.count && late.count > 50)
        #expect(compared["lateUsers"] as? Int == Set(late.compactMap { $0["user"] as? String }).count)
        let users = compared["users"] as? [[String: Any]] ?? []
        #expect(users.count == min(100, Set(late.compactMap { $0["user"] as? String }).count))
        // Every listed record is one of those; each user's records are theirs.
        let latePositions = Set(late.compactMap { $0["position"] as? Int })
        for u in users {
            for r in u["records"] as? [[String: Any]] ?? [] { #expect(latePositions.contains(r["position"] as? Int ?? -1)) }
        }
    }

    @Test func aSmallLogsUsersChangesAddUpToEachCountsDifferenceAndThePageShowsThem() throws {
        let s = Scratch()
        let file = s.path + "/all.jsonl"
        Self.tool(["generate", "--users", "60", "--seed", "3", "--out", file])
        let lines = (try? String(contentsOfFile: file, encoding: .utf8))?.split(separator: "\n") ?? []
        let cut = lines.count * 2 / 3
        FileManager.default.createFile(atPath: s.path + "/a.jsonl", contents: Data((lines[..<cut].joined(separator: "\n") + "\n").utf8))
        FileManager.default.createFile(atPath: s.path + "/b.jsonl", contents: Data((lines[cut...].joined(separator: "\n") + "\n").utf8))
        let log = s.path + "/log"
        _ = KnownAtCommands.tool(["import", "--log", log, s.path + "/a.jsonl"], now: "2026-03-01T00:00:00Z")
        _ = KnownAtCommands.tool(["import", "--log", log, s.path + "/b.jsonl"], now: "2026-05-01T00:00:00Z")
        let args = ["report", "--log", log, "--compare-known-at", "2026-04-01T00:00:00Z"]
        let compared = Tool.json(Self.tool(args + ["--format", "json"]).out) as? [String: Any] ?? [:]
        let users = compared["users"] as? [[String: Any]] ?? []
        #expect(users.count == compared["lateUsers"] as? Int && users.count > 5)
        // Rates are not attributed to users (a user's share of a rate is no share of it).
        let keys = users.flatMap { ($0["changes"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String } }
        #expect(!keys.isEmpty && !keys.contains { $0.hasSuffix("Rate") }, "\(keys.filter { $0.hasSuffix("Rate") })")
        for f in compared["figures"] as? [[String: Any]] ?? [] {
            guard let key = f["key"] as? String, key.hasPrefix("counts|") else { continue }
            let sum = users.reduce(0) { total, u in
                total + ((u["changes"] as? [[String: Any]] ?? []).first { $0["key"] as? String == key }?["difference"] as? Int ?? 0)
            }
            #expect(sum == f["difference"] as? Int, "\(key): the users' changes add up")
        }
        let page = Self.tool(args + ["--out", "-"]).out
        #expect(page.contains("<h2>As known at 2026-04-01T00:00:00Z and now</h2>") && page.contains("<table class=\"late\">"))
        #expect(page.contains(#"data-k="revenue|/activeSubscriptions""#))
        Self.tool(["report", "--log", log, "--format", "json"], status: 2)
        Self.tool(args + ["--from", "2026-02-01T00:00:00Z", "--format", "json"], status: 2)
    }
}

/// `--compare-known-at` at its edges: a currency only the late records brought is compared too.
@Suite struct CompareKnownAtEdges {
    @Test func aCurrencyOnlyTheLateRecordsBringIsCompared() throws {
        let s = Scratch()
        let usd = #"{"id":"p1","type":"purchase","user":"u1","time":"2026-01-10T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-02-10T00:00:00Z","price":"9.99","currency":"USD"}}"#
        let eur = #"{"id":"p2","type":"purchase","user":"u2","time":"2026-01-11T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t2","expires":"2026-02-11T00:00:00Z","price":"8.99","currency":"EUR"}}"#
        FileManager.default.createFile(atPath: s.path + "/a.jsonl", contents: Data((usd + "\n").utf8))
        FileManager.default.createFile(atPath: s.path + "/b.jsonl", contents: Data((eur + "\n").utf8))
        let log = s.path + "/log"
        _ = KnownAtCommands.tool(["import", "--log", log, s.path + "/a.jsonl"], now: "2026-03-01T00:00:00Z")
        _ = KnownAtCommands.tool(["import", "--log", log, s.path + "/b.jsonl"], now: "2026-05-01T00:00:00Z")
        let compared = Tool.json(CompareKnownAtCommands.tool(["report", "--log", log, "--at", "2026-01-20T00:00:00Z", "--compare-known-at", "2026-04-01T00:00:00Z", "--format", "json"]).out) as? [String: Any] ?? [:]
        let keys = (compared["figures"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        #expect(keys.contains("revenue|/currencies[currency=EUR]/gross"), "\(keys.prefix(8))")
    }
}
