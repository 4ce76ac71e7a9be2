import Foundation
import Testing
import TestKit

/// `counts`, `funnel`, `revenue` and `notifications` as of now, answered by `replay-tool`
/// processes from the report summary, print what a full fold prints
/// (`REPLAY_TOOL_REPORT_SUMMARY=off`), after appends and as the clock moves, and when the summary
/// file was damaged between two processes.
@Suite struct ReportSummaryEndToEnd {
    static let reports = ["counts", "funnel", "revenue", "notifications"]

    /// Each report as of `now`, from the summary and from a full fold, in `format`.
    static func expectSameAsFullFold(_ log: String, now: String, format: String = "json", sourceLocation: SourceLocation = #_sourceLocation) {
        for report in reports {
            let kept = Tool.run([report, "--log", log, "--format", format], now: now)
            let full = Tool.run([report, "--log", log, "--format", format], now: now, via: ["/usr/bin/env", "REPLAY_TOOL_REPORT_SUMMARY=off"])
            #expect(kept.status == 0 && full.status == 0, "\(report) as of \(now): \(kept.err)\(full.err)", sourceLocation: sourceLocation)
            #expect(kept.out == full.out, "\(report) as of \(now), \(format): the summary's answer differs from a full fold", sourceLocation: sourceLocation)
        }
    }

    @Test func reportsAsOfNowFromTheSummaryPrintWhatAFullFoldPrints() throws {
        let s = Scratch()
        let base = s.path + "/base.jsonl"
        try Tool.run(["generate", "--users", "800", "--seed", "4"]).out.write(toFile: base, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, base]).status == 0)
        Self.expectSameAsFullFold(s.log, now: "2026-02-01T00:00:00Z")
        Self.expectSameAsFullFold(s.log, now: "2026-02-01T00:00:00Z", format: "table")
        let summary = try #require(try FileManager.default.contentsOfDirectory(atPath: s.log + "/projections").first { $0.hasSuffix(".summary") })
        // New events: a late one, a future-dated one, a transfer, a duplicate; the clock moves past deadlines.
        let lines = [
            #"{"id":"e2e-1","type":"paywall_viewed","user":"u_5","time":"2026-01-03T10:00:00Z","data":{"context":"settings"}}"#,
            #"{"id":"e2e-2","type":"purchase","user":"u_9","time":"2026-03-20T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"e2e-t2","expires":"2026-04-20T10:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"e2e-3","type":"purchase","user":"giver","time":"2026-01-20T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"e2e-t3","expires":"2026-02-20T10:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"e2e-4","type":"transfer","user":"giver","time":"2026-01-25T10:00:00Z","data":{"to":"u_11"}}"#,
            #"{"id":"e2e-1","type":"paywall_viewed","user":"u_5","time":"2026-01-03T10:00:00Z","data":{"context":"settings"}}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: s.path + "/new.jsonl", atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, s.path + "/new.jsonl"]).status == 0)
        for now in ["2026-02-03T00:00:00Z", "2026-03-01T00:00:00Z", "2026-03-25T00:00:00Z", "2026-06-01T00:00:00Z"] {
            Self.expectSameAsFullFold(s.log, now: now)
        }
        // A damaged summary (one bit) is rebuilt, never trusted.
        let path = s.log + "/projections/" + summary
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        Self.expectSameAsFullFold(s.log, now: "2026-06-02T00:00:00Z")
    }

    /// `notifications --at` an instant before now is read from the summary as of now (each entry
    /// as of that instant), and prints what a fold up to that instant prints: with the kept
    /// projection, event cache and time index removed, nothing is built again to answer.
    @Test func theScheduleAtAnEarlierInstantIsReadFromTheSummaryAsAFoldPrintsIt() throws {
        let s = Scratch()
        let base = s.path + "/base.jsonl"
        try Tool.run(["generate", "--users", "800", "--seed", "6"]).out.write(toFile: base, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, base]).status == 0)
        let now = "2026-06-01T00:00:00Z"
        #expect(Tool.run(["notifications", "--log", s.log], now: now).status == 0)
        let folder = s.log + "/projections"
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasSuffix(".summary") && !name.hasSuffix(".fingerprint") {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        // What is kept, but for the rules fingerprint's cache (a process may write it).
        func derived() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".fingerprint") }.sorted() }
        let kept = try derived()
        let instants = ["2026-01-02T00:00:00Z", "2026-01-20T12:00:00Z", "2026-02-14T00:00:00Z", "2026-04-01T00:00:00Z", now]
        var read: [String: (json: String, table: String)] = [:]
        for at in instants {
            let json = Tool.run(["notifications", "--log", s.log, "--at", at, "--format", "json"], now: now)
            let table = Tool.run(["notifications", "--log", s.log, "--at", at], now: now)
            #expect(json.status == 0 && table.status == 0, "\(json.err)\(table.err)")
            read[at] = (json.out, table.out)
        }
        let after = try derived()
        #expect(after == kept, "answered from the summary alone: \(kept) then \(after)")
        var sizes: [Int] = []
        for at in instants {
            let off = ["/usr/bin/env", "REPLAY_TOOL_REPORT_SUMMARY=off"]
            let json = Tool.run(["notifications", "--log", s.log, "--at", at, "--format", "json"], now: now, via: off)
            let table = Tool.run(["notifications", "--log", s.log, "--at", at], now: now, via: off)
            #expect(read[at]?.json == json.out, "notifications --at \(at), JSON: the summary's answer differs from a fold's")
            #expect(read[at]?.table == table.out, "notifications --at \(at), table: the summary's answer differs from a fold's")
            sizes.append(json.out.count)
        }
        // The schedules differ from instant to instant: entries come, fire and are dropped.
        #expect(Set(sizes).count == instants.count, "\(sizes)")
    }
}
