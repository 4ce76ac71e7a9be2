import Foundation
import Testing
import TestKit
import LedgerFixture
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// Late records that change only when a kept schedule entry was scheduled, dropped or switched
/// (not whether it is dropped, its channel as of now, nor its fire time) update the summary's
/// schedule: read at an earlier instant, the entry is as a fold up to that instant holds it.
extension ReportSummaries {
    static func trialLine(_ user: String, at time: String = "2026-01-05T00:00:00Z", id: String? = nil) -> String {
        #"{"id":"\#(id ?? user + "-p")","type":"purchase","user":"\#(user)","time":"\#(time)","data":{"product":"handz.pro.monthly","transaction":"\#(user)1","expires":"2026-01-12T00:00:00Z","offer":"free_trial"}}"#
    }

    /// Appends `lines` (one user's), updates the summary as of `now` (not rebuilt), and compares
    /// its schedule at `instants` with a fold's.
    static func expectLateRecordsUpdate(_ lines: [String], _ log: TestLog, _ store: ProjectionStore, now: Timestamp, at instants: [String],
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        try append(lines, to: log)
        let (summary, refresh, _) = try store.summary(asOf: now)
        #expect(!refresh.rebuilt && refresh.recordsRead == lines.count, "\(refresh)", sourceLocation: sourceLocation)
        for instant in instants.map(at) {
            let full = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: instant)).notifications()
            #expect(summary.notifications(at: instant, profile: .handz) == full, "the schedule as of \(instant)", sourceLocation: sourceLocation)
        }
    }

    @Test func lateRecordsThatOnlyMoveWhenAReminderWasScheduledDroppedOrSwitchedUpdateTheSchedule() throws {
        let off = #"{"category":"billing"}"#
        let log = try TestLog([
            // Trials whose reminders fire on 2026-01-10; one revoked on the 9th.
            Self.trialLine("switcher"), Self.trialLine("dropper"), Self.trialLine("redated"),
            #"{"id":"d-r","type":"revoke","user":"dropper","time":"2026-01-09T00:00:00Z","data":{}}"#,
        ])
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        let now = Self.at("2026-03-01T00:00:00Z")
        try Self.expectSameAsRebuild(store, log.path, at: now)
        let instants = ["2026-01-03T12:00:00Z", "2026-01-06T12:00:00Z", "2026-01-07T12:00:00Z", "2026-01-08T12:00:00Z", "2026-01-09T12:00:00Z"]
        // Billing off and on again before the reminder fired: its channel as of now unchanged.
        try Self.expectLateRecordsUpdate([
            #"{"id":"s-off","type":"notifications_disabled","user":"switcher","time":"2026-01-06T00:00:00Z","data":\#(off)}"#,
            #"{"id":"s-on","type":"notifications_enabled","user":"switcher","time":"2026-01-08T00:00:00Z","data":\#(off)}"#,
        ], log, store, now: now, at: instants)
        // A refund before the revoke: the reminder dropped either way, earlier now.
        try Self.expectLateRecordsUpdate([#"{"id":"d-f","type":"refund","user":"dropper","time":"2026-01-07T00:00:00Z","data":{"transaction":"dropper1"}}"#],
                                         log, store, now: now, at: instants)
        // The trial's purchase delivered again dated two days earlier (same transaction and
        // expiry): the reminder is scheduled from the 3rd, its fire time unchanged.
        try Self.expectLateRecordsUpdate([Self.trialLine("redated", at: "2026-01-03T00:00:00Z", id: "redated-p0")], log, store, now: now, at: instants)
        // What the fold says between the late records: push off on the 7th, the reminder dropped by
        // the 8th, the redated trial's reminder scheduled on the 3rd.
        let on7th = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: Self.at("2026-01-07T12:00:00Z"))).notifications()
        #expect(on7th.map { "\($0.user) \($0.status.rawValue) \($0.channels)" }
                == [#"dropper cancelled ["push", "in_app"]"#, #"redated scheduled ["push", "in_app"]"#, #"switcher scheduled ["in_app"]"#])
        let on3rd = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: Self.at("2026-01-03T12:00:00Z"))).notifications()
        #expect(on3rd.map(\.user) == ["redated"])
    }
}
