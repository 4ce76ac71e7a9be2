import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// A schedule entry read as of an earlier instant (`NotificationEntry.asOf`) where the trial ends
/// twice before its reminder fires, or the billing setting is set again to what it already was.
extension TrialReminders {
    /// Seed 004 CH27 L143: a refund, then a revoke, both before the reminder fires. The reminder was
    /// dropped by the refund: between the two, and after both, a fold holds it dropped since the refund.
    @Test func CH27_aReminderDroppedTwiceIsDroppedSinceTheFirstEndOfItsTrial() throws {
        let story = [
            Self.trial("1", "twice"), line("2", "refund", "twice", "2026-01-07T00:00:00Z", #"{"transaction":"twice1"}"#),
            line("3", "revoke", "twice", "2026-01-09T00:00:00Z"),
        ]
        let log = try TestLog(story)
        let last = try Self.entries(log, at: "2026-03-01T00:00:00Z")
        #expect(last["twice"]?.first?.cancelledAt == Timestamp.parse("2026-01-07T00:00:00Z"), "\(String(describing: last["twice"]))")
        for instant in ["2026-01-06T00:00:00Z", "2026-01-07T00:00:00Z", "2026-01-08T00:00:00Z", "2026-01-09T00:00:00Z", "2026-01-10T00:00:00Z"] {
            let at = Timestamp.parse(instant)!
            let folded = try Self.entries(log, at: instant)["twice"]
            #expect(last["twice"]?.compactMap { $0.asOf(at) } == folded, "as of \(instant)")
            #expect(folded?.first?.cancelled == (at >= Timestamp.parse("2026-01-07T00:00:00Z")!), "as of \(instant)")
        }
    }

    /// Seed 004 CH27 L203: billing disabled twice, then enabled, before the reminder fires. Only
    /// the first disable and the enable switch its channel, so read as of any instant between them
    /// it goes as the billing setting then says.
    @Test func CH27_aBillingSettingSetAgainToWhatItWasDoesNotSwitchTheReminder() throws {
        let off = #"{"category":"billing"}"#
        let story = [
            Self.trial("1", "repeater"), line("2", "notifications_disabled", "repeater", "2026-01-06T00:00:00Z", off),
            line("3", "notifications_disabled", "repeater", "2026-01-07T00:00:00Z", off),
            line("4", "notifications_enabled", "repeater", "2026-01-08T00:00:00Z", off),
        ]
        let log = try TestLog(story)
        let last = try Self.entries(log, at: "2026-03-01T00:00:00Z")
        #expect(last["repeater"]?.first?.channelSwitches == ["2026-01-06T00:00:00Z", "2026-01-08T00:00:00Z"].map { Timestamp.parse($0)! })
        for (instant, inAppOnly) in [("2026-01-05T12:00:00Z", false), ("2026-01-06T12:00:00Z", true), ("2026-01-07T12:00:00Z", true), ("2026-01-08T12:00:00Z", false)] {
            let at = Timestamp.parse(instant)!
            let folded = try Self.entries(log, at: instant)["repeater"]
            #expect(last["repeater"]?.compactMap { $0.asOf(at) } == folded, "as of \(instant)")
            #expect(folded?.first?.inAppOnly == inAppOnly, "as of \(instant)")
        }
    }
}
