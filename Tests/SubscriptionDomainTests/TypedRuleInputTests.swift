import Testing
@testable import SubscriptionDomain
@testable import EventCodec

/// The rules read typed inputs only: the store fields the contract does not list are read once
/// into their payload (and written back as they came), sandbox transitions say which rule their
/// sandbox subscription followed, and a transferred subscription is folded by `evolve`.
@Suite struct TypedRuleInputs {
    static let t = #""user":"u1","time":"2026-01-06T10:00:00Z""#

    static func purchaseLine(_ extra: String) -> String {
        #"{"id":"g","type":"purchase",\#(t),"data":{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-01-07T10:00:00Z"\#(extra)}}"#
    }

    @Test func TEMPORARY_GRANT_isReadFromTheTypedFlagAndOnlyFromTheLiteralTrue() throws {
        let grant = try EventCodec.decode(Self.purchaseLine(#","temporaryGrant":true"#))
        guard case .purchase(let p) = grant.data else { Issue.record("not a purchase"); return }
        #expect(p.temporaryGrant)
        #expect(plan([grant], asOf: "2026-01-06T12:00:00Z").rule == .temporaryGrant)
        for other in [#""true""#, "1", "null", "false"] {
            let e = try EventCodec.decode(Self.purchaseLine(#","temporaryGrant":"# + other))
            guard case .purchase(let q) = e.data else { Issue.record("not a purchase"); return }
            #expect(!q.temporaryGrant, "\(other)")
            #expect(plan([e], asOf: "2026-01-06T12:00:00Z").rule == .purchaseStartsPro, "\(other)")
        }
    }

    @Test func theTakehomeShareIsTypedOnSalesAndTheLineIsWrittenBackAsItCame() throws {
        let cases: [(String, Int64?)] = [("0.85", 850_000), ("0.7", 700_000), ("1", 1_000_000), ("0", 0), ("1.5", nil), (#""0.85""#, nil)]
        for (raw, share) in cases {
            let line = Self.purchaseLine(#","takehomePercentage":\#(raw),"offerCode":"SPRING""#)
            let e = try EventCodec.decode(line)
            guard case .purchase(let p) = e.data else { Issue.record("not a purchase"); return }
            #expect(p.takehomeShare == share, "\(raw)")
            #expect(EventCodec.encode(e) == line, "the unknown fields keep their order around the store field")
        }
        let renewal = try EventCodec.decode(#"{"id":"r","type":"renewal",\#(Self.t),"data":{"product":"p","transaction":"t2","expires":"2026-02-06T10:00:00Z","takehomePercentage":0.7}}"#)
        guard case .renewal(let r) = renewal.data else { Issue.record("not a renewal"); return }
        #expect(r.takehomeShare == 700_000)
    }

    @Test func SANDBOX_aTransitionKeptApartSaysTheRuleItsSandboxSubscriptionFollowed() {
        let decider = PlanDecider(profile: .handz)
        var s = decider.initial(user: "u1")
        let trial = decider.evolve(&s, purchase("2026-01-01T00:00:00Z", expires: "2026-01-08T00:00:00Z", txn: "s1", trial: true, env: .sandbox))
        #expect(trial == PlanTransition(rule: .sandboxApart, sandboxRule: .purchaseStartsTrial))
        let cancel = decider.evolve(&s, event(.cancellation, "2026-01-02T00:00:00Z") { $0.environment = .sandbox })
        #expect(cancel == PlanTransition(rule: .sandboxApart, sandboxRule: .cancelDuringTrial))
        let renewal = decider.evolve(&s, event(.renewal, "2026-01-08T00:00:00Z") {
            $0.product = "handz.pro.monthly"; $0.transaction = "s2"; $0.originalTransaction = "s1"; $0.expires = at("2026-02-08T00:00:00Z")
            $0.environment = .sandbox
        })
        #expect(renewal == PlanTransition(rule: .sandboxApart, sandboxRule: .trialConverted))
        #expect(s.rule == .sandboxApart && s.subscription == nil)
        let production = decider.evolve(&s, purchase("2026-01-09T00:00:00Z", expires: "2026-02-09T00:00:00Z", txn: "p1"))
        #expect(production == PlanTransition(rule: .purchaseStartsPro))
    }

    @Test func TRANSFER_IN_aReceivedSubscriptionIsFoldedByEvolveAfterTheOwnEvents() {
        let decider = PlanDecider(profile: .handz)
        let sender = decider.evolve(decider.initial(user: "u1"), purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"))
        let given = decider.evolve(decider.initial(user: "u2"), event(.accountCreated, "2026-01-20T00:00:00Z", user: "u2"))
        let received = decider.evolve(given, ReceivedTransfer(subscription: sender.subscription!, time: at("2026-01-10T00:00:00Z")))
        #expect(received.rule == .transferIn && received.subscription?.transaction == "t1")
        #expect(received.lastEventTime == at("2026-01-20T00:00:00Z"), "handed over after the own events: the last event time stays")
        #expect(decider.view(received, at: at("2026-01-21T00:00:00Z")).planState == .pro)
        var running = sender
        #expect(decider.evolve(&running, ReceivedTransfer(subscription: sender.subscription!, time: at("2026-01-10T00:00:00Z"))) == nil)
        #expect(running == sender, "a running subscription of their own: nothing changes")
    }
}
