import Foundation
import Testing
import LedgerFixture
import TestKit
import EventStore
import SubscriptionDomain
import EventCodec
@testable import Projections
@testable import ProjectionStorage
import StoreAdapters
import Ingest

/// Random and boundary values (each field at its minimum, maximum, one step outside, far outside,
/// huge digit strings) through the import door and every read model, in process. An arithmetic
/// trap would kill the test process, so finishing is the main assertion; the invariants below are
/// the rest. Seeded and bounded: a few hundred lines per seed.
@Suite struct BoundaryFuzz {
    static let times = [
        "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00.000000001Z",
        "2199-12-31T23:59:59.999999999Z", "2200-01-01T00:00:00Z", "2199-12-31T00:00:00Z", "2199-12-29T00:00:00Z",
        "2262-04-10T00:00:00Z", "2262-04-11T23:00:00Z", "2262-04-11T23:47:16.854775807Z", "2262-04-11T23:47:16.854775808Z",
        "2262-04-11T23:47:17Z", "2263-01-01T00:00:00Z", "1677-09-21T00:12:43.145224192Z", "1677-09-21T00:12:43.145224191Z",
        "1677-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "2262-04-11T23:47:16+23:59",
        "1677-09-21T00:12:44-23:59", "2026-01-06T10:00:00Z", "2026-02-06T10:00:00Z", "2026-01-06T10:00:00.5+01:00",
    ]
    static let prices = [
        "0", "0.000001", "9.99", "999999999.999999", "1000000000", "1000000000.000001", "1000000001", "9000000000000",
        "9999999999999", "9223372036854.775807", "9223372036854.775808", "9999999999999999999", "99999999999999999999",
        String(repeating: "9", count: 40), "-1", "-9223372036854.775808", "1e9", "0.0000001",
    ]
    static let quantities = [
        "0", "1", "2", "1000000", "1000001", "1000000000", "1000000001", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", String(repeating: "9", count: 40), "-1", "1.5", "1e6",
    ]
    static let ids = ["a", "b", "c", "d", "e", "f", "a\\u0000", "b\\u007f", "c\\u001f", "\\t"]
    static let products = ["handz.pro.monthly", "howru_premium_yearly", "howru_sms_100", "unknown.product"]
    static let types = EventType.allCases.map(\.rawValue)

    /// Values inside the ranges, at their edges and in the middle.
    static let goodTimes = ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000001Z", "2199-12-31T23:59:59.999999999Z", "2199-12-31T00:00:00Z",
                            "2199-12-29T00:00:00Z", "2026-01-06T10:00:00Z", "2026-02-06T10:00:00Z", "2026-01-06T10:00:00.5+01:00"]
    static let goodPrices = ["0", "0.000001", "9.99", "999999999.999999", "1000000000"]
    static let goodQuantities = ["1", "2", "1000000"]

    /// One random line: a plausible event of a random type (its required fields present, values
    /// inside the ranges), then up to three fields set to a value from the boundary pools above.
    static func line(_ n: Int, _ rng: inout TestKit.SplitMix64) -> String {
        func pick(_ pool: [String]) -> String { pool[Int(rng.next() % UInt64(pool.count))] }
        func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        func goodTime() -> String {
            chance(50) ? Timestamp(nanoseconds: Int64(rng.next() % 7_258_118_400_000_000_000)).description : pick(goodTimes)
        }
        func anyTime() -> String { chance(30) ? Timestamp(nanoseconds: Int64(bitPattern: rng.next())).description : pick(times) }
        let type = pick(types)
        var fields: [String: String] = ["id": #""e\#(n)""#, "user": #""\#(pick(Array(ids.prefix(6))))""#, "time": #""\#(goodTime())""#]
        var data: [String: String] = [:]
        let product = type == "consumable_purchase" ? "howru_sms_100" : pick(products)
        if chance(90) { data["product"] = #""\#(product)""# }
        if chance(90) { data["transaction"] = #""t\#(rng.next() % 6)""# }
        if chance(85) { data["expires"] = #""\#(goodTime())""# }
        if chance(40) { data["offer"] = #""\#(pick(["free_trial", "none", "intro"]))""# }
        if chance(60) { data["price"] = #""\#(pick(goodPrices))""#; data["currency"] = #""\#(pick(["USD", "EUR"]))""# }
        if chance(40) { data["graceExpires"] = #""\#(goodTime())""# }
        if type == "pause" || chance(10) { data["resumesAt"] = #""\#(goodTime())""# }
        if type == "consumable_purchase" || type == "credits_used" || chance(5) { data["quantity"] = pick(goodQuantities) }
        if type == "transfer" || chance(5) { data["to"] = #""\#(pick(Array(ids.prefix(6))))""# }
        if chance(20) { data["effective"] = #""\#(pick(["immediate", "next_renewal"]))""# }
        if chance(10) { data["environment"] = #""sandbox""# }
        if chance(30) { data["category"] = #""billing""# }
        if chance(30) { data["context"] = #""onboarding""# }
        for _ in 0..<Int(rng.next() % 4) {
            switch rng.next() % 8 {
            case 0: fields["time"] = #""\#(anyTime())""#
            case 1: data["expires"] = #""\#(anyTime())""#
            case 2: data[chance(50) ? "graceExpires" : "resumesAt"] = #""\#(anyTime())""#
            case 3: data["price"] = #""\#(pick(prices))""#
            case 4: data["quantity"] = pick(quantities)
            case 5: fields["user"] = #""\#(pick(ids))""#
            case 6: fields["id"] = #""\#(pick(ids))""#
            default: data["to"] = #""\#(pick(ids))""#
            }
        }
        let body = data.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
        return #"{"id":\#(fields["id"]!),"type":"\#(type)","user":\#(fields["user"]!),"time":\#(fields["time"]!),"data":{\#(body)}}"#
    }

    /// The profiles folded with: shipped, every number at its accepted maximum, and one built in
    /// code past every check (arithmetic must saturate even then).
    static var profiles: [Profile] {
        var widest = Profile.howru
        widest.name = "widest"
        widest.trialDays = 3650; widest.billingGraceDays = 3650; widest.unverifiedGraceHours = 87_600
        widest.trialReminderLeadHours = 87_600; widest.commissionPercent = 100
        for i in widest.products.indices { widest.products[i].price = "1000000000" }
        var unchecked = widest
        unchecked.name = "unchecked"
        unchecked.trialDays = .max; unchecked.billingGraceDays = .max; unchecked.unverifiedGraceHours = .min
        unchecked.trialReminderLeadHours = .max; unchecked.commissionPercent = .min
        for i in unchecked.products.indices { unchecked.products[i].periodMonths = 0; unchecked.products[i].credits = .max }
        return [.handz, .howru, widest, unchecked]
    }

    static let instants: [Timestamp] = [
        Timestamp(nanoseconds: .min), Timestamp(nanoseconds: -1), Timestamp(nanoseconds: 0), Timestamp.parse("2026-01-20T00:00:00Z")!,
        Timestamp(nanoseconds: 7_258_118_400_000_000_000 - 1), Timestamp(nanoseconds: 7_258_118_400_000_000_000),
        Timestamp.parse("2262-04-11T23:47:16Z")!, Timestamp(nanoseconds: .max),
    ]

    /// Every read model of a log, at every instant, under every profile, with a few windows.
    static func readEverything(_ dir: String) throws {
        let log = try EventLog(directory: dir, access: .read)
        for profile in profiles {
            for (k, instant) in instants.enumerated() {
                var options = ReplayOptions(profile: profile, asOf: instant)
                let snapshot = try Replay.run(directory: dir, options: options)
                check(snapshot)
                for user in snapshot.userIDs.prefix(4) {
                    let history = try Replay.history(log: log, user: user, options: options)
                    let decider = PlanDecider(profile: profile)
                    let state = history.state(decider, at: instant)
                    #expect(decider.view(state, at: instant).credits >= 0)
                    _ = decider.timers(state, after: Timestamp(nanoseconds: .min), upTo: Timestamp(nanoseconds: .max))
                }
                options.from = instants[(k + 3) % instants.count]
                options.to = instant
                check(try Replay.run(directory: dir, options: options))
            }
            var store = ProjectionStore(logDirectory: dir, profile: profile)
            store.partitions = 2
            for instant in [instants[0], instants[3], instants[7]] { check(try store.keptSnapshot(asOf: instant)) }
        }
        let a = try Replay.run(directory: dir, options: ReplayOptions(profile: profiles[2], asOf: instants[5]))
        let b = try Replay.run(directory: dir, options: ReplayOptions(profile: profiles[3], asOf: instants[5]))
        _ = RuleDiff.compare(a, b)
    }

    static func check(_ s: LedgerSnapshot) {
        #expect(s.counts().values.allSatisfy { $0 >= 0 })
        let funnel = s.funnel()
        #expect(funnel.steps.allSatisfy { $0.users >= 0 && $0.rate >= 0 && $0.rate <= 1 })
        let revenue = s.revenue()
        #expect(revenue.lines.allSatisfy { $0.gross >= .zero && $0.mrr >= .zero }, "\(revenue.lines) in \(s.options.profile.name)")
        #expect(revenue.churnRate >= 0 && revenue.churnRate <= 1)
        _ = s.notifications().map(\.fireAt.description)
        for user in s.userIDs {
            let view = s.plan(of: user)
            #expect(view.credits >= 0)
            _ = (view.graceEndsAt?.description, view.expiresAt?.description)
        }
    }

    /// Folds each user's events straight through the Decider and asks it at every instant.
    static func fold(_ events: [Event]) {
        for profile in profiles {
            let decider = PlanDecider(profile: profile)
            for (user, list) in Dictionary(grouping: events, by: \.user) {
                var state = decider.initial(user: user)
                for e in list.sorted(by: { $0.time < $1.time }) {
                    decider.evolve(&state, e)
                    #expect(state.credits >= 0)
                }
                for instant in instants {
                    let view = decider.view(state, at: instant)
                    #expect(view.credits >= 0)
                    _ = decider.status(state, at: instant)
                }
                _ = decider.timers(state, after: Timestamp(nanoseconds: .min), upTo: Timestamp(nanoseconds: .max))
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomAndBoundaryEventsNeverTrapThroughTheDoorOrAnyReadModel(seed: UInt64) throws {
        var rng = TestKit.SplitMix64(seed: seed)
        let lines = (0..<300).map { Self.line($0, &rng) }
        let scratch = Scratch()
        let folder = scratch.log

        // The door: what it accepts is folded; what the codec alone reads (as an older version
        // may have appended it) goes into a second log, read the same way.
        var admitted: [Event] = [], legacy: [ProposedRecord] = []
        for text in lines {
            var text = text
            let bytes = Array(text.utf8)
            if case .events(let list)? = try? text.withUTF8({ b in try StorePayload.map(UnsafeRawBufferPointer(b), from: .canonical, profile: .howru) }),
               (try? list.forEach { e throws(EventDecodingError) in try Profile.howru.checkCatalog(e) }) != nil {
                admitted += list
            }
            if let e = try? EventCodec.decode(bytes), !legacy.contains(where: { $0.id == e.id }) {
                var payload: [UInt8] = []
                EventCodec.encode(e, into: &payload)
                #expect(try EventCodec.decode(payload) == e)
                legacy.append(ProposedRecord(id: e.id, stream: e.user, payload: payload))
            }
        }
        // Not a vacuous run: many lines pass the door, more pass the codec alone.
        #expect(admitted.count >= 30 && legacy.count > admitted.count, "admitted \(admitted.count), read \(legacy.count)")
        for e in admitted {
            #expect(e.time >= Timestamp(nanoseconds: 0) && e.time < Timestamp(nanoseconds: 7_258_118_400_000_000_000))
            #expect((e.allFields.quantity ?? 1) >= 1 && (e.allFields.quantity ?? 1) <= 1_000_000)
            #expect((e.allFields.price ?? .zero) >= .zero && (e.allFields.price ?? .zero) <= Money(micros: 1_000_000_000_000_000))
            #expect(!(e.user + e.id + (e.allFields.to ?? "")).unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
        Self.fold(admitted)
        Self.fold(legacy.map { try! EventCodec.decode($0.payload) })

        let imported = try TestLog([])
        let result = try imported.append(lines, file: "fuzz", batch: 7, profile: .howru)
        let summary = result.summary
        #expect(summary.appended + summary.duplicates + summary.rejected == lines.count)
        #expect(summary.appended + summary.duplicates == admitted.count)
        #expect(result.rejections.allSatisfy { !$0.description.contains("\n") })
        try Self.readEverything(imported.path)

        let older = folder + "/older"
        let log = try EventLog(directory: older)
        for chunk in stride(from: 0, to: legacy.count, by: 50) { _ = try log.append(Array(legacy[chunk..<min(chunk + 50, legacy.count)])) }
        try Self.readEverything(older)
    }

    /// The issue's cases, folded from a log that holds them (an older version accepted them).
    @Test func valuesAnOlderVersionAcceptedAreReadWithoutTrapping() throws {
        let scratch = Scratch()
        let folder = scratch.log
        let lines = [
            #"{"id":"1","type":"purchase","user":"u1","time":"2262-04-10T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t1","expires":"2262-04-11T23:47:16Z","offer":"free_trial"}}"#,
            #"{"id":"2","type":"billing_issue","user":"u1","time":"2262-04-11T23:00:00Z"}"#,
            #"{"id":"3","type":"purchase","user":"u2","time":"1677-09-21T00:12:44Z","data":{"product":"handz.pro.monthly","transaction":"t2","expires":"1677-09-21T00:12:45Z","offer":"free_trial"}}"#,
            #"{"id":"4","type":"purchase","user":"u3","time":"2026-01-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t3","expires":"2262-04-11T23:47:16Z","price":"9000000000000","currency":"USD"}}"#,
            #"{"id":"5","type":"purchase","user":"u4","time":"2026-01-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t4","expires":"2262-04-11T23:47:16Z","price":"9000000000000","currency":"USD"}}"#,
            #"{"id":"6","type":"purchase","user":"u5","time":"2026-01-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t5","expires":"2262-04-11T23:47:16Z","price":"9000000000000","currency":"USD"}}"#,
            #"{"id":"7","type":"consumable_purchase","user":"u6","time":"2026-01-01T00:00:00Z","data":{"product":"howru_sms_20","transaction":"t6","quantity":1000000000}}"#,
            #"{"id":"8","type":"refund","user":"u5","time":"2026-01-02T00:00:00Z","data":{"transaction":"t5","price":"9000000000000","currency":"USD"}}"#,
            #"{"id":"9","type":"refund_reversed","user":"u5","time":"2026-01-03T00:00:00Z","data":{"transaction":"t5"}}"#,
        ]
        let log = try EventLog(directory: folder)
        _ = try log.append(lines.map { l in
            let e = try! EventCodec.decode(l)
            return ProposedRecord(id: e.id, stream: e.user, payload: Array(l.utf8))
        })
        try Self.readEverything(folder)
        let s = try Replay.run(directory: folder, options: ReplayOptions(profile: .handz, asOf: Timestamp(nanoseconds: .max)))
        #expect(s.revenue().lines.first?.gross == Money(micros: .max))
        #expect(s.plan(of: "u6").credits == 1_000_000_000)
    }
}
