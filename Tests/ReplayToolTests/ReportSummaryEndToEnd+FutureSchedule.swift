import Foundation
import Testing
import TestKit

/// `notifications --at` an instant after now is not read from the report summary as of now: the
/// log may hold events dated after now (a billing issue, a refund), and the schedule then is a
/// fold's up to that instant.
extension ReportSummaryEndToEnd {
    @Test func theScheduleAtALaterInstantHoldsTheEventsDatedAfterNow() throws {
        let s = Scratch()
        let lines = [
            #"{"id":"f-1","type":"purchase","user":"payer","time":"2026-02-15T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"f-t1","expires":"2026-03-15T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            // Dated after now: a billing issue schedules a payment_failed notice then.
            #"{"id":"f-2","type":"billing_issue","user":"payer","time":"2026-03-10T00:00:00Z","data":{}}"#,
            #"{"id":"f-3","type":"purchase","user":"early","time":"2026-02-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"f-t3","expires":"2026-03-01T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"f-4","type":"billing_issue","user":"early","time":"2026-02-20T00:00:00Z","data":{}}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: s.path + "/events.jsonl", atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, s.path + "/events.jsonl"]).status == 0)
        let now = "2026-03-01T00:00:00Z"
        // The summary as of now is kept: it holds the billing issue of the 20th, not the one of the 10th.
        let asOfNow = Tool.run(["notifications", "--log", s.log, "--format", "json"], now: now)
        #expect(asOfNow.status == 0 && asOfNow.out.contains(#""early""#) && !asOfNow.out.contains(#""payer""#), "\(asOfNow.out)\(asOfNow.err)")
        for at in ["2026-03-10T00:00:00Z", "2026-03-12T00:00:00Z"] {
            let read = Tool.run(["notifications", "--log", s.log, "--at", at, "--format", "json"], now: now)
            let full = Tool.run(["notifications", "--log", s.log, "--at", at, "--format", "json"], now: now,
                                environment: ["REPLAY_TOOL_REPORT_SUMMARY": "off"])
            #expect(read.status == 0 && full.status == 0, "\(read.err)\(full.err)")
            #expect(read.out == full.out, "notifications --at \(at) after now: \(read.out) against a fold's \(full.out)")
            #expect(read.out.contains(#""payer""#) && read.out.contains(#""payment_failed""#), "the billing issue dated after now, as of \(at): \(read.out)")
        }
    }
}
