import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections

/// The report's notification table counts the schedule without building it: it must
/// say what `notifications()` says, entry for entry, even at an instant that is a fire time.
@Suite struct NotificationSummaryCounts {
    static func counted(_ list: [ScheduledNotification]) -> NotificationSummary {
        var s = NotificationSummary()
        for n in list {
            s.byStatus[n.kind, default: [:]][n.status, default: 0] += 1
            if n.channels == ["in_app"] { s.inAppOnly[n.kind, default: 0] += 1 }
        }
        return s
    }

    @Test func aReminderDroppedByATrialThatEndedEarlyCountsAsCancelledNotDue() throws {
        func trial(_ id: String, _ user: String) -> String {
            line(id, "purchase", user, "2026-01-01T10:00:00Z", #"{"product":"handz.pro.monthly","transaction":"\#(user)1","expires":"2026-01-08T10:00:00Z","offer":"free_trial"}"#)
        }
        // "ended" is revoked two days in, before its reminder (48 h before the trial's end) fires; "kept" is not.
        let log = try TestLog([trial("1", "ended"), trial("2", "kept"), line("3", "revoke", "ended", "2026-01-03T10:00:00Z", #"{"transaction":"ended1"}"#)])
        let snapshot = try log.replay(at: "2026-01-10T00:00:00Z")
        let summary = snapshot.notificationSummary()
        #expect(summary == Self.counted(snapshot.notifications()))
        #expect(summary.count(.trialEnding, .cancelled) == 1 && summary.count(.trialEnding, .due) == 1 && summary.count(.trialEnding, .scheduled) == 0)
    }

    @Test func theSummaryCountsTheScheduleEvenAtAnInstantThatIsAFireTime() throws {
        let (log, profile) = try Series.sampleLogs()[0]
        let schedule = try log.replay(at: "2026-03-01T00:00:00Z", profile: profile).notifications()
        // A few fire times of each kind, each a second before, at and after.
        let second = Timestamp.Duration(nanoseconds: 1_000_000_000)
        var instants: [Timestamp] = []
        for kind in [ScheduledNotification.Kind.trialEnding, .paymentFailed] {
            for n in schedule.filter({ $0.kind == kind && $0.status != .cancelled }).prefix(3) {
                instants += [n.fireAt - second, n.fireAt, n.fireAt + second]
            }
        }
        #expect(schedule.contains { $0.kind == .trialEnding } && schedule.contains { $0.kind == .paymentFailed }, "the sample log has both kinds")
        var dueAtFireTime = 0
        for t in instants {
            let snapshot = try log.replay(at: t.description, profile: profile)
            let list = snapshot.notifications()
            #expect(snapshot.notificationSummary() == Self.counted(list), "at \(t)")
            dueAtFireTime += list.filter { $0.fireAt == t && $0.status == .due }.count
        }
        // The entries firing exactly at the instant are due then (not still scheduled).
        #expect(dueAtFireTime >= instants.count / 3 && dueAtFireTime > 0)
    }
}
