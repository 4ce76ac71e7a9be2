import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// The `trial_ending` reminder (seed 004 CH27 L143): it fires at trial end − 48 h and is dropped
/// only if the trial ends before it fires; once fired it was sent, whatever ends the trial later.
@Suite struct TrialReminders {
    /// A 7-day handz trial from 2026-01-05: its reminder fires at 2026-01-10T00:00:00Z.
    static func trial(_ id: String, _ user: String) -> String {
        line(id, "purchase", user, "2026-01-05T00:00:00Z",
             #"{"product":"handz.pro.monthly","transaction":"\#(user)1","expires":"2026-01-12T00:00:00Z","offer":"free_trial"}"#)
    }

    /// Each user's trial_ending reminder as `user status`, in fire-time-then-user order.
    static func reminders(_ lines: [String], at instant: String) throws -> [String] {
        try TestLog(lines).replay(at: instant).notifications().filter { $0.kind == .trialEnding }.map {
            #expect($0.fireAt == Timestamp.parse("2026-01-10T00:00:00Z")!)
            return "\($0.user) \($0.status.rawValue)"
        }
    }

    @Test func CH27_L143_aReminderThatHasFiredStaysFiredWhenARefundRevokeOrExpirationEndsTheTrialLater() throws {
        let story = [
            Self.trial("1", "refunded"), line("2", "refund", "refunded", "2026-01-11T00:00:00Z", #"{"transaction":"refunded1"}"#),
            Self.trial("3", "revoked"), line("4", "revoke", "revoked", "2026-01-10T12:00:00Z"),
            Self.trial("5", "expired"), line("6", "expiration", "expired", "2026-01-12T00:00:00Z"),
            // The refund reaches the log before the purchase it refunds: the user is folded again in time order.
            line("7", "refund", "reordered", "2026-01-11T00:00:00Z", #"{"transaction":"reordered1"}"#), Self.trial("8", "reordered"),
        ]
        #expect(try Self.reminders(story, at: "2026-01-09T00:00:00Z") == ["expired scheduled", "refunded scheduled", "reordered scheduled", "revoked scheduled"])
        #expect(try Self.reminders(story, at: "2026-01-10T06:00:00Z") == ["expired due", "refunded due", "reordered due", "revoked due"])
        #expect(try Self.reminders(story, at: "2026-02-01T00:00:00Z") == ["expired due", "refunded due", "reordered due", "revoked due"])
    }

    @Test func CH27_L143_aTrialThatEndsBeforeItsReminderFiresCancelsIt() throws {
        let story = [
            Self.trial("1", "refunded"), line("2", "refund", "refunded", "2026-01-08T00:00:00Z", #"{"transaction":"refunded1"}"#),
            Self.trial("3", "revoked"), line("4", "revoke", "revoked", "2026-01-09T23:59:59Z"),
            Self.trial("5", "transferred"), line("6", "transfer", "transferred", "2026-01-06T00:00:00Z", #"{"to":"friend"}"#),
            line("7", "refund", "reordered", "2026-01-08T00:00:00Z", #"{"transaction":"reordered1"}"#), Self.trial("8", "reordered"),
        ]
        for instant in ["2026-01-09T23:59:59Z", "2026-01-10T00:00:00Z", "2026-02-01T00:00:00Z"] {
            #expect(try Self.reminders(story, at: instant) == ["refunded cancelled", "reordered cancelled", "revoked cancelled", "transferred cancelled"], "\(instant)")
        }
    }

    /// Seed 004 CH27 L203–L204: the user's billing setting *when the reminder fires* decides its
    /// channels; the in-app reminder always stays. A switch after it fired
    /// changes nothing: it was sent.
    @Test func CH27_L203_theBillingSwitchIsReadWhenTheReminderFiresNotWhenItIsScheduled() throws {
        let off = #"{"category":"billing"}"#
        let story = [
            // Trial on day 0, billing disabled on day 2: the reminder of day 5 goes in-app only.
            Self.trial("1", "disabled-later"), line("2", "notifications_disabled", "disabled-later", "2026-01-07T00:00:00Z", off),
            // Disabled before the trial, enabled again before the reminder fires: push and in-app.
            line("3", "notifications_disabled", "enabled-later", "2026-01-04T00:00:00Z", off), Self.trial("4", "enabled-later"),
            line("5", "notifications_enabled", "enabled-later", "2026-01-08T00:00:00Z", off),
            // Disabled after the reminder fired: it was sent by push.
            Self.trial("6", "disabled-after"), line("7", "notifications_disabled", "disabled-after", "2026-01-11T00:00:00Z", off),
        ]
        let channels = try TestLog(story).replay(at: "2026-02-01T00:00:00Z").notifications().map { "\($0.user) \($0.channels)" }
        #expect(channels == [#"disabled-after ["push", "in_app"]"#, #"disabled-later ["in_app"]"#, #"enabled-later ["push", "in_app"]"#])
    }

    /// Each user's schedule entries as a fold up to `instant` keeps them.
    static func entries(_ log: TestLog, at instant: String) throws -> [String: [NotificationEntry]] {
        var out: [String: [NotificationEntry]] = [:]
        try log.replay(at: instant).users.forEachFold { if !$0.notifications.isEmpty { out[$0.user] = $0.notifications } }
        return out
    }

    /// Seed 004 CH27 L143 and L203: reminders are scheduled, dropped and switched at events only,
    /// so a fold up to any earlier instant holds the later fold's entries as of that instant
    /// (`NotificationEntry.asOf`): what lets a past schedule be read, not folded again.
    @Test func CH27_theScheduleAsOfAnEarlierInstantIsTheLaterFoldsEntriesAsOfIt() throws {
        let off = #"{"category":"billing"}"#
        let story = [
            Self.trial("1", "refunded"), line("2", "refund", "refunded", "2026-01-08T00:00:00Z", #"{"transaction":"refunded1"}"#),
            Self.trial("3", "switcher"), line("4", "notifications_disabled", "switcher", "2026-01-06T00:00:00Z", off),
            line("5", "notifications_enabled", "switcher", "2026-01-07T00:00:00Z", off),
            line("6", "notifications_disabled", "switcher", "2026-01-09T00:00:00Z", off),
            line("7", "notifications_enabled", "switcher", "2026-01-11T00:00:00Z", off),
            line("8", "refund", "reordered", "2026-01-08T00:00:00Z", #"{"transaction":"reordered1"}"#), Self.trial("9", "reordered"),
            line("10", "purchase", "payer", "2026-01-02T00:00:00Z",
                 #"{"product":"handz.pro.monthly","transaction":"payer1","expires":"2026-02-02T00:00:00Z","price":"9.99","currency":"USD"}"#),
            line("11", "billing_issue", "payer", "2026-02-02T00:00:00Z"),
        ]
        let log = try TestLog(story)
        let last = try Self.entries(log, at: "2026-03-01T00:00:00Z")
        #expect(last["switcher"]?.first?.channelSwitches.count == 3, "the enable on the 11th comes after the reminder fired")
        #expect(last["refunded"]?.first?.cancelledAt == Timestamp.parse("2026-01-08T00:00:00Z"))
        var instant = Timestamp.parse("2026-01-01T00:00:00Z")!
        while instant < Timestamp.parse("2026-02-04T00:00:00Z")! {
            let folded = try Self.entries(log, at: instant.description)
            let read = last.compactMapValues { e in Optional(e.compactMap { $0.asOf(instant) }).flatMap { $0.isEmpty ? nil : $0 } }
            #expect(read == folded, "as of \(instant)")
            instant = instant + .init(nanoseconds: 6 * 3_600 * 1_000_000_000)
        }
    }
}
