import Testing
import SubscriptionDomain
import EventCodec
@testable import Population

/// The generated populations are what demos, benchmarks and the rules corpus rely on: the same seed
/// gives the same events, every event passes the import door's checks, and each user's events come
/// in time order but for the delivery faults the generator adds on purpose.
@Suite struct PopulationGeneration {
    @Test(arguments: ["handz", "mirrormate", "tomo", "howru"])
    func theSameSeedGivesTheSameLinesAndAnotherSeedOthers(app: String) throws {
        let profile = try #require(Profile.named(app))
        let lines = { (seed: UInt64) in PopulationGenerator(profile: profile, users: 200, seed: seed).events().map { EventCodec.encode($0) } }
        let a = lines(7), b = lines(7), c = lines(8)
        #expect(a == b, "seed 7")
        #expect(a != c, "seeds 7 and 8")
        #expect(a.count > 200)
    }

    @Test(arguments: ["handz", "mirrormate", "tomo", "howru"])
    func everyGeneratedLineDecodesToItselfAndPassesTheDoorsChecks(app: String) throws {
        let profile = try #require(Profile.named(app))
        for event in PopulationGenerator(profile: profile, users: 300, seed: 42).events() {
            let line = EventCodec.encode(event)
            let back = try EventCodec.decode(line)
            #expect(EventCodec.encode(back) == line)
            try ValueRanges.check(back)
            try profile.checkCatalog(back)
        }
    }

    @Test func eachUserStartsWithAnAccountAndTheUsersAreAsMany() {
        let events = PopulationGenerator(profile: .handz, users: 150, seed: 3).events()
        var first: [String: EventType] = [:]
        for e in events where first[e.user] == nil { first[e.user] = e.type }
        #expect(first.count == 150)
        #expect(first.values.allSatisfy { $0 == .accountCreated }, "\(Set(first.values.map(\.rawValue)))")
    }

    @Test func aMonthLaterIsTheSameDayClampedToTheMonthsEnd() {
        let t = { (s: String) in Timestamp.parse(s)! }
        #expect(Timestamp.addMonths(1, to: t("2026-01-31T10:00:00Z")) == t("2026-02-28T10:00:00Z"))
        #expect(Timestamp.addMonths(1, to: t("2028-01-31T10:00:00Z")) == t("2028-02-29T10:00:00Z"))
        #expect(Timestamp.addMonths(12, to: t("2026-03-15T00:00:01Z")) == t("2027-03-15T00:00:01Z"))
        #expect(Timestamp.addMonths(-1, to: t("2026-03-31T00:00:00Z")) == t("2026-02-28T00:00:00Z"))
    }

    @Test func aLateDeliveryPutsAFewUsersEventsOutOfTimeOrderNotMost() {
        let events = PopulationGenerator(profile: .handz, users: 1000, seed: 11).events()
        var last: [String: Timestamp] = [:], late: Set<String> = []
        for e in events {
            if let t = last[e.user], e.time < t { late.insert(e.user) }
            last[e.user] = max(last[e.user] ?? e.time, e.time)
        }
        #expect(late.count > 0 && late.count < 120, "\(late.count) of 1000 users have an event out of time order")
    }

    @Test func fiveThousandUsersWithCreditPacksPassTheDoorsRanges() throws {
        for event in PopulationGenerator(profile: .howru, users: 5000, seed: 42).events() { try ValueRanges.check(event) }
    }
}
