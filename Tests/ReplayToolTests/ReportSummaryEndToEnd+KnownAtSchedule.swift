import Foundation
import Testing
import TestKit

/// `notifications --at T --as-known-at K` is not read from the report summary as of now: the
/// summary holds every record, also those recorded after K; the schedule is the one of the records
/// the log held at K.
extension ReportSummaryEndToEnd {
    @Test func theScheduleAtAnEarlierInstantAsKnownAtATimeLeavesOutTheRecordsRecordedLater() throws {
        let s = Scratch()
        func importing(_ lines: [String], _ name: String, now: String) throws {
            try lines.joined(separator: "\n").write(toFile: s.path + "/" + name, atomically: true, encoding: .utf8)
            let r = Tool.run(["import", "--log", s.log, s.path + "/" + name], now: now)
            #expect(r.status == 0, "\(r.err)")
        }
        try importing([
            #"{"id":"k-1","type":"purchase","user":"payer","time":"2026-02-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"k-t1","expires":"2026-03-01T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"k-2","type":"purchase","user":"known","time":"2026-02-02T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"k-t2","expires":"2026-03-02T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"k-3","type":"billing_issue","user":"known","time":"2026-02-18T00:00:00Z","data":{}}"#,
        ], "first.jsonl", now: "2026-02-22T00:00:00Z")
        // Recorded on the 24th, dated the 20th: a late billing issue.
        try importing([#"{"id":"k-4","type":"billing_issue","user":"payer","time":"2026-02-20T00:00:00Z","data":{}}"#], "late.jsonl", now: "2026-02-24T00:00:00Z")
        let now = "2026-02-26T00:00:00Z"
        #expect(Tool.run(["notifications", "--log", s.log], now: now).status == 0)   // the summary as of now, kept
        let args = ["notifications", "--log", s.log, "--at", "2026-02-21T00:00:00Z", "--as-known-at", "2026-02-23T00:00:00Z", "--format", "json"]
        let read = Tool.run(args, now: now)
        let full = Tool.run(args, now: now, environment: ["REPLAY_TOOL_REPORT_SUMMARY": "off"])
        #expect(read.status == 0 && full.status == 0, "\(read.err)\(full.err)")
        #expect(read.out == full.out, "as known at the 23rd: \(read.out) against a fold's \(full.out)")
        #expect(read.out.contains(#""known""#) && !read.out.contains(#""payer""#), "the billing issue recorded on the 24th is not known on the 23rd: \(read.out)")
    }
}
