import Foundation
import Testing
import TestKit

/// `--as-known-at T` on the reports: a log that grew after T answers as a log holding only what
/// was recorded by T, byte for byte, for every report and form.
@Suite struct KnownAtCommands {
    static let now = "2026-06-01T00:00:00Z"

    @discardableResult
    static func tool(_ args: [String], now: String = now, status: Int32 = 0) -> ToolRun {
        let r = Tool.run(args, now: now)
        #expect(r.status == status, "replay-tool \(args.joined(separator: " ")): exit \(r.status): \(r.err)")
        return r
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
        #expect(page.replacingOccurrences(of: grown, with: early) == earlyPage)
        // Before anything was recorded: nothing.
        let none = Tool.json(Self.tool(["counts", "--log", grown, "--format", "json", "--as-known-at", "2026-01-01T00:00:00Z"]).out) as? [String: Int]
        #expect(none?.values.allSatisfy { $0 == 0 } == true && none?.isEmpty == false)
        Self.tool(["counts", "--log", grown, "--as-known-at", "yesterday-ish"], status: 2)
    }
}
