import Testing
import EventCodec
import SubscriptionDomain
@testable import Projections

/// A walk's window steps keep a paid start's retention checks in time order, those checked left in
/// place until every one is: two walks hold the same only when the checks each still has to do are
/// the same, however many each has done.
@Suite struct WindowStepsRetention {
    /// The window steps after one monthly purchase on handz, and the fold it was taken from.
    static func afterAPurchase() throws -> (WindowSteps, UserFold) {
        let line = #"{"id":"p1","type":"purchase","user":"u_w","time":"2025-01-15T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-03-15T10:00:00Z","price":"9.99","currency":"USD"}}"#
        let e = try EventCodec.decode(Array(line.utf8))
        let decider = PlanDecider(profile: .handz)
        var fold = UserFold(user: "u_w")
        fold.apply(e, decider, ReplayOptions(profile: .handz, asOf: Timestamp(nanoseconds: .max)))
        var steps = WindowSteps(decider: decider, includeSandbox: false)
        steps.event(e, index: 0, now: e.time, fold: fold, books: nil, converted: false) { _, _, _ in }
        return (steps, fold)
    }

    @Test func aWalkThatHasDoneTheFirstCheckDoesNotHoldWhatOneThatHasNotHolds() throws {
        let (notChecked, fold) = try Self.afterAPurchase()
        var checked = notChecked
        // Just past the first check (a month after the start, plus the unverified grace).
        var kept: [TimeKey] = []
        checked.checkRetention(before: Timestamp.parse("2025-02-20T00:00:00Z")!, state: fold.state) { key, _, _ in kept.append(key) }
        #expect(kept.map(\.kind) == [.retentionKept], "the first check, done: \(kept)")
        // The one that has done a check holds eleven to do, the other twelve: neither holds what the other does.
        #expect(!checked.holdsTheSame(as: notChecked))
        #expect(!notChecked.holdsTheSame(as: checked))
        #expect(checked.holdsTheSame(as: checked) && notChecked.holdsTheSame(as: notChecked))
    }
}
