import Testing
import SubscriptionDomain
import Population
@testable import Projections

/// A fold counts the events in its replay's window, `from` included and `to` left out
/// (`ReplayOptions.inWindow`), whichever `apply` it is given the options through.
@Suite struct UserFoldWindows {
    static func counts(_ events: [Event], from: Timestamp?, to: Timestamp?, _ decider: PlanDecider) -> UserFold {
        var options = ReplayOptions(profile: .handz, asOf: Timestamp(nanoseconds: .max))
        (options.from, options.to) = (from, to)
        var fold = UserFold(user: events[0].user)
        for e in events { fold.apply(e, decider, options) }
        return fold
    }

    @Test func anEventAtTheWindowsEndIsLeftOutAndOneAtItsStartCounted() {
        let seed: UInt64 = 0xF01D_0E4D
        print("anEventAtTheWindowsEndIsLeftOutAndOneAtItsStartCounted: seed \(seed)")
        let decider = PlanDecider(profile: .handz)
        var byUser: [String: [Event]] = [:]
        for e in PopulationGenerator(profile: .handz, users: 60, seed: seed).events() { byUser[e.user, default: []].append(e) }
        var atEnd = 0, atStart = 0
        for (user, given) in byUser.sorted(by: { $0.key < $1.key }) {
            let events = given.sorted { $0.time < $1.time }
            for t in Set(events.map(\.time)).sorted() {
                // Just past the event before `t` (no event between), and just past `t`.
                let before = Timestamp(nanoseconds: (events.last { $0.time < t }?.time ?? t - .days(1)).nanoseconds + 1)
                let after = Timestamp(nanoseconds: t.nanoseconds + 1)
                let toT = Self.counts(events, from: nil, to: t, decider).counts
                #expect(toT == Self.counts(events, from: nil, to: before, decider).counts, "seed \(seed), \(user): to \(t)")
                if toT != Self.counts(events, from: nil, to: after, decider).counts { atEnd += 1 }
                let fromT = Self.counts(events, from: t, to: nil, decider).counts
                #expect(fromT == Self.counts(events, from: before, to: nil, decider).counts, "seed \(seed), \(user): from \(t)")
                if fromT != Self.counts(events, from: after, to: nil, decider).counts { atStart += 1 }
            }
        }
        // Events that count are at the ends of some of these windows.
        #expect(atEnd > 0 && atStart > 0, "seed \(seed): \(atEnd) ends, \(atStart) starts")
    }
}
