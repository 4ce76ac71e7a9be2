import Testing
@testable import SubscriptionDomain
@testable import EventCodec

/// The typed event model: each type holds exactly the fields of its table, and catalog fields
/// off their type are kept and written back byte for byte where the encoder always wrote them.
@Suite struct TypedEvents {
    /// Every catalog field, set to a value of its kind.
    static var everyField: EventFields {
        var f = EventFields()
        f.product = "p"; f.transaction = "t"; f.originalTransaction = "o"; f.expires = at("2026-02-01T00:00:00Z")
        f.offer = .intro; f.price = Money.parse("1.50"); f.currency = "EUR"; f.environment = .sandbox; f.familyShared = true
        f.reason = "r"; f.graceExpires = at("2026-02-02T00:00:00Z"); f.resumesAt = at("2026-02-03T00:00:00Z"); f.effective = .immediate
        f.to = "u2"; f.quantity = 2; f.context = "c"; f.sourceScreen = "s"; f.planState = "free"; f.trialEligible = true
        f.trialUsed = false; f.plan = "pro"; f.errorCode = "e"; f.category = "billing"
        return f
    }

    @Test func eachTypeTakesExactlyTheFieldsOfItsTableAndNeedsItsRequiredOnes() throws {
        for type in EventType.allCases {
            let table = type.fields
            #expect(Set(table.required).isSubset(of: Set(table.all)) && table.all.count == table.required.count + table.optional.count)
            var slots = Self.everyField
            let data = try #require(EventData(type: type, taking: &slots), "\(type)")
            #expect(data.type == type)
            // What the type took is its table, no more, no less; the rest stays in the slots.
            var given = EventFields()
            data.put(into: &given)
            #expect(EventField.allCases.filter { given[$0] != nil } == table.all, "\(type) holds other fields than its table")
            #expect(EventField.allCases.filter { slots[$0] != nil } == EventField.allCases.filter { !table.all.contains($0) }, "\(type)")
            for field in table.required {
                var missing = Self.everyField
                missing[field] = nil
                #expect(type.firstMissingField(in: missing) == field)
                #expect(EventData(type: type, taking: &missing) == nil, "\(type) without \(field)")
            }
        }
    }

    @Test func aLineDecoderReusingItsSlotsGivesEachLineWhatAFreshDecodeGives() {
        let t = #""user":"u","time":"2026-01-06T10:00:00Z""#
        let lines = [
            #"{"id":"a","type":"transfer",\#(t),"data":{"to":"u2","transaction":"t0","zeta":[1]}}"#,
            #"{"id":"b","type":"account_created",\#(t),"data":{}}"#,
            // Refused after its product and transaction were read; the next line lacks both.
            #"{"id":"c","type":"purchase",\#(t),"data":{"product":"p","transaction":"t1","expires":"soon"}}"#,
            #"{"id":"d","type":"purchase",\#(t),"data":{"expires":"2026-02-01T00:00:00Z"}}"#,
            #"{"id":"e","type":"purchase",\#(t),"data":{"product":"p","transaction":"t2","expires":"2026-02-01T00:00:00Z","price":"1.50","currency":"EUR"}}"#,
            #"{"id":"f","type":"cancellation",\#(t),"data":{"price":"9.99","reason":"r","zeta":2}}"#,
            #"{"id":"g","type":"renewal",\#(t),"data":{"product":"p","transaction":"t3","expires":"2026-03-01T00:00:00Z"}}"#,
            #"{"id":"h","type":"paywall_viewed",\#(t),"data":{"context":"c"}}"#,
        ]
        func outcome(_ decode: () throws(EventDecodingError) -> Event) -> String {
            do { return "\(try decode())" } catch { return "refused: \(error)" }
        }
        var decoder = EventCodec.LineDecoder()
        var refused = 0
        for line in lines {
            let fresh = outcome { () throws(EventDecodingError) in try EventCodec.decode(line) }
            var bytes = Array(line.utf8)
            let reused = bytes.withUnsafeMutableBytes { b in outcome { () throws(EventDecodingError) in try decoder.decode(UnsafeRawBufferPointer(b)) } }
            #expect(reused == fresh, "\(line)")
            if fresh.hasPrefix("refused") { refused += 1 }
        }
        #expect(refused == 2)
    }

    @Test func offTypeCatalogFieldsAreKeptAndWrittenBackInTheCatalogsOrder() throws {
        // A price, a product and a quantity on a cancellation, before an unknown field and out of order.
        let line = #"{"id":"c","type":"cancellation","user":"u","time":"2026-01-06T10:00:00Z","data":{"zeta":1,"quantity":2,"price":"9.990","reason":"r","product":"p"}}"#
        let e = try EventCodec.decode(line)
        guard case .cancellation(let notice) = e.data else { Issue.record("not a cancellation: \(e.data)"); return }
        #expect(notice.reason == "r" && notice.ref == SubscriptionRef())
        #expect(e.extra.offType.map(\.field) == [.product, .price, .quantity])
        #expect(e.extra.unknown == [.init(name: "zeta", rawJSON: "1")])
        let canonical = #"{"id":"c","type":"cancellation","user":"u","time":"2026-01-06T10:00:00Z","data":{"product":"p","price":"9.99","reason":"r","quantity":2,"zeta":1}}"#
        #expect(EventCodec.encode(e) == canonical)
        #expect(EventCodec.encode(try EventCodec.decode(canonical)) == canonical)
        #expect(try EventCodec.decode(canonical) == e)
    }

    @Test func anOffTypeFieldIsCheckedAsItsField() {
        #expect(throws: EventDecodingError.self) {
            try EventCodec.decode(#"{"id":"c","type":"cancellation","user":"u","time":"2026-01-06T10:00:00Z","data":{"price":9.99}}"#)
        }
        #expect(throws: EventDecodingError.self) {
            try EventCodec.decode(#"{"id":"c","type":"account_created","user":"u","time":"2026-01-06T10:00:00Z","data":{"expires":"soon"}}"#)
        }
    }

    @Test func theTypeMayComeAfterItsData() throws {
        let late = try EventCodec.decode(#"{"data":{"transaction":"t","expires":"2026-02-01T00:00:00Z","product":"p"},"user":"u","id":"r","time":"2026-01-06T10:00:00Z","type":"renewal"}"#)
        guard case .renewal(let r) = late.data else { Issue.record("not a renewal"); return }
        #expect(r.product == "p" && r.transaction == "t" && r.expires == at("2026-02-01T00:00:00Z") && late.extra.isEmpty)
        #expect(throws: EventDecodingError.self) {
            try EventCodec.decode(#"{"data":{"transaction":"t","product":"p"},"user":"u","id":"r","time":"2026-01-06T10:00:00Z","type":"renewal"}"#)
        }
    }

    @Test func aStoreEventsEnvironmentRoutesItToTheSandboxSubscription() {
        // The cancellation's environment is one of its typed fields (beyond the contract's columns).
        let events = [
            purchase("2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", txn: "prod"),
            purchase("2026-01-02T00:00:00Z", expires: "2026-02-02T00:00:00Z", txn: "sand", env: .sandbox),
        ]
        let sandboxCancel = plan(events + [event(.cancellation, "2026-01-03T00:00:00Z") { $0.environment = .sandbox }], asOf: "2026-01-04T00:00:00Z")
        #expect(sandboxCancel.autoRenew == true)
        let productionCancel = plan(events + [event(.cancellation, "2026-01-03T00:00:00Z")], asOf: "2026-01-04T00:00:00Z")
        #expect(productionCancel.autoRenew == false)
    }
}
