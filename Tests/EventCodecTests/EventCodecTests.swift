import Testing
@testable import SubscriptionDomain
@testable import EventCodec

@Suite struct EventCodecCorpus {
    static let valid: [String] = [
        #"{"id":"evt_01","type":"purchase","user":"u_42","time":"2026-01-06T10:00:00Z","data":{"product":"pro.monthly","transaction":"t_1","expires":"2026-01-13T10:00:00Z","offer":"free_trial","price":"9.99","currency":"USD"}}"#,
        #"  { "user" : "u" , "time":"2026-01-06T10:00:00.250Z", "type":"cancellation", "id":"x" }  "#,
        #"{"id":"\u00e9v\n\"q\"","type":"paywall_viewed","user":"ü","time":"2026-01-06T10:00:00Z","data":{"context":"a\/b","trialEligible":true,"custom":{"n":[1,-2.5e3,null,true,{"k":"v"}]}}}"#,
        #"{"id":"s","type":"restore_failed","user":"u","time":"2026-01-06T12:00:00+02:00","data":{"errorCode":42}}"#,
        #"{"id":"emoji","type":"purchase_failed","user":"u","time":"2026-01-06T10:00:00Z","data":{"reason":"\ud83d\ude00"},"source":"client"}"#,
        #"{"id":"e","type":"credits_used","user":"u","time":"2026-01-06T10:00:00Z","data":{"quantity":3},"position":7,"version":2,"recorded":"2026-01-06T10:00:01Z"}"#,
        #"{"id":"p","type":"pause","user":"u","time":"2026-01-06T10:00:00Z","data":{"resumesAt":"2026-03-06T10:00:00.5+01:00","note":1},"source":"store"}"#,
    ]

    @Test func trickyValidLinesDecode() throws {
        let e0 = try EventCodec.decode(Self.valid[0])
        #expect(e0.type == .purchase && e0.allFields.offer == .freeTrial && e0.allFields.price == Money(micros: 9_990_000))
        let e1 = try EventCodec.decode(Self.valid[1])
        #expect(e1.time.nanoseconds % 1_000_000_000 == 250_000_000)
        let e2 = try EventCodec.decode(Self.valid[2])
        #expect(e2.id == "év\n\"q\"" && e2.user == "ü" && e2.allFields.context == "a/b")
        #expect(e2.allFields.extra == [.init(name: "custom", rawJSON: #"{"n":[1,-2.5e3,null,true,{"k":"v"}]}"#)])
        let e3 = try EventCodec.decode(Self.valid[3])
        #expect(e3.time == at("2026-01-06T10:00:00Z") && e3.allFields.errorCode == "42")
        #expect(try EventCodec.decode(Self.valid[4]).allFields.reason == "😀")
        #expect(try EventCodec.decode(Self.valid[5]).allFields.quantity == 3)
    }

    @Test func encodeThenDecodeGivesTheSameEvent() throws {
        for line in Self.valid {
            let e = try EventCodec.decode(line)
            let again = try EventCodec.decode(EventCodec.encode(e))
            #expect(again == e, "\(line)")
            #expect(EventCodec.encode(again) == EventCodec.encode(e))
        }
    }

    @Test func aPauseRoundTripsWithItsResumesAtAndNeedsNoData() throws {
        let e = try EventCodec.decode(Self.valid[6])
        #expect(e.type == .pause && e.type.isStoreEvent && e.source == .store)
        #expect(e.allFields.resumesAt == at("2026-03-06T09:00:00.5Z"))
        let line = EventCodec.encode(e)
        #expect(line == #"{"id":"p","type":"pause","user":"u","time":"2026-01-06T10:00:00Z","data":{"resumesAt":"2026-03-06T09:00:00.500Z","note":1},"source":"store"}"#)
        #expect(try EventCodec.decode(line) == e)
        let bare = try EventCodec.decode(#"{"id":"q","type":"pause","user":"u","time":"2026-01-06T10:00:00Z"}"#)
        #expect(bare.type == .pause && bare.allFields == EventFields() && bare.extra.isEmpty)
        #expect(EventCodec.encode(bare) == #"{"id":"q","type":"pause","user":"u","time":"2026-01-06T10:00:00Z","data":{}}"#)
        // Written after graceExpires, before effective: the catalog's order.
        // graceExpires and effective are off-type for a pause: kept, and written in that order all the same.
        var fields = bare.allFields
        fields.graceExpires = at("2026-01-07T00:00:00Z"); fields.resumesAt = at("2026-02-07T00:00:00Z"); fields.effective = .immediate
        let both = Event(id: bare.id, type: .pause, user: bare.user, time: bare.time, fields: fields)
        #expect(both.extra.offType.map(\.field) == [.graceExpires, .effective])
        #expect(EventCodec.encode(both).contains(#"{"graceExpires":"2026-01-07T00:00:00Z","resumesAt":"2026-02-07T00:00:00Z","effective":"immediate"}"#))
    }

    @Test func theCanonicalTypeMarkerIsInEveryLineOfItsTypeAndNoOther() {
        // Ids and users that spell a marker can only hold it escaped.
        let tricky = [#"x","type":"transfer",""#, #"","type":"refund","#, "plain"]
        for type in EventType.allCases {
            let marker = EventCodec.canonicalTypeMarker(type)
            for other in EventType.allCases {
                for id in tricky {
                    let line = Array(EventCodec.encode(event(other, "2026-01-01T00:00:00Z", user: id, id: id) {
                        $0.to = id; $0.reason = id
                        // Every type's required fields (off-type ones are written all the same).
                        $0.product = "p"; $0.transaction = "t"; $0.expires = at("2026-02-01T00:00:00Z"); $0.quantity = 1; $0.context = "c"; $0.category = "c"
                    }).utf8)
                    let holds = line.indices.contains { line[$0...].starts(with: marker) }
                    #expect(holds == (type == other), "\(type) marker in a \(other) line with id \(id)")
                }
            }
        }
    }

    @Test func unknownDataFieldsAreWrittenBackUnchanged() throws {
        let e = try EventCodec.decode(Self.valid[2])
        #expect(EventCodec.encode(e).contains(#""custom":{"n":[1,-2.5e3,null,true,{"k":"v"}]}"#))
    }

    static let invalid: [(String, String)] = [
        ("not json", "expected '{' (an event is a JSON object)"),
        (#"{"id":"a","type":"purchase","user":"u","time":"2026-01-06T10:00:00Z","data":{"product":"p","transaction":"t"}}"#, "type 'purchase' requires data.expires"),
        (#"{"id":"a","type":"upgrade","user":"u","time":"2026-01-06T10:00:00Z"}"#, "unknown event type 'upgrade'"),
        (#"{"id":"a","type":"pause","user":"u","time":"2026-01-06T10:00:00Z","data":{"resumesAt":"soon"}}"#, "field 'data.resumesAt': 'soon' is not an RFC 3339 time such as 2026-01-06T10:00:00Z"),
        (#"{"id":"a","type":"revoke","time":"2026-01-06T10:00:00Z"}"#, "missing required field 'user'"),
        (#"{"id":"a","type":"revoke","user":"u","time":"2026-01-06 10:00:00"}"#, "field 'time': '2026-01-06 10:00:00' is not an RFC 3339 time such as 2026-01-06T10:00:00Z"),
        (#"{"id":"a","type":"revoke","user":"u","time":"2026-02-30T10:00:00Z"}"#, "field 'time': '2026-02-30T10:00:00Z' is not an RFC 3339 time such as 2026-01-06T10:00:00Z"),
        (#"{"id":"a","type":"refund","user":"u","time":"2026-01-06T10:00:00Z","data":{"transaction":"t","price":9.99}}"#, "field 'data.price': expected a decimal string such as \"9.99\" (money is never a JSON number)"),
        (#"{"id":"a","type":"credits_used","user":"u","time":"2026-01-06T10:00:00Z","data":{"quantity":"3"}}"#, "field 'data.quantity': expected a positive integer"),
        (#"{"id":"a","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z","extra":1}"#, "unknown top-level field 'extra' (extra fields belong in data)"),
        (#"{"id":"a","id":"b","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#, "duplicate field 'id'"),
        (#"{"id":"","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#, "field 'id' is empty"),
        (#"{"id":"a","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"} x"#, "unexpected text after the event object"),
        (#"{"id":"a\q","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#, "invalid escape \\q"),
        (#"{"id":"a","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z","data":{"x":[1,}}"#, "field 'data.x': unexpected character '}', expected a value"),
        ("\u{FEFF}" + #"{"id":"a","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#, "the line starts with a UTF-8 byte order mark (EF BB BF): save the file as UTF-8 without a BOM"),
        (#"{"id":"a","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z","data":{"deep":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}}",
         "field 'data.deep': nesting deeper than 64 levels"),
        (#"{"id":"a","type":"purchase","user":"u","time":"2026-01-06T10:00:00Z","data":{"product":"p","transaction":"t","expires":"2026-01-13T10:00:00Z","currency":"usd"}}"#, "field 'data.currency': 'usd' is not an ISO 4217 code such as USD"),
        (#"{"id":"a","type":"purchase","user":"u","time":"2026-01-06T10:00:00Z","data":{"product":"p","transaction":"t","expires":"2026-01-13T10:00:00Z","offer":"promo"}}"#, "field 'data.offer': 'promo' is not free_trial, intro or none"),
        (#"{"id":"a","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z""#, "unexpected end of line, expected ',' or '}'"),
        (#"{"id":"\ud800","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#, "unpaired surrogate in \\u escape"),
    ]

    @Test(arguments: invalid) func invalidLinesAreRejectedWithAPreciseReason(line: String, reason: String) {
        let error = #expect(throws: EventDecodingError.self) { try EventCodec.decode(line) }
        #expect(error?.reason == reason)
    }

    @Test func longStringsAreScannedRightAtEveryOffset() throws {
        // The scanner reads 8 bytes at a time: put the interesting byte at every offset of a long string.
        for k in 0..<20 {
            let pad = String(repeating: "a", count: k)
            let escaped = try EventCodec.decode(#"{"id":"\#(pad)\"q\u00e9","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#)
            #expect(escaped.id == pad + "\"qé")
            let unicode = try EventCodec.decode(#"{"id":"\#(pad)é😀z","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#)
            #expect(unicode.id == pad + "é😀z")
            let control = #"{"id":"\#(pad)\#t","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#
            let error = #expect(throws: EventDecodingError.self) { try EventCodec.decode(control) }
            #expect(error?.reason == "control character inside a string" && error?.column == 8 + k)
            var bytes = Array(#"{"id":"\#(pad)xy","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#.utf8)
            bytes[7 + k] = 0xC3   // a lone lead byte: invalid UTF-8
            #expect(throws: EventDecodingError.self) { try EventCodec.decode(bytes) }
        }
    }

    @Test func invalidUTF8IsRejected() {
        var bytes = Array(#"{"id":"a","type":"revoke","user":"u","time":"2026-01-06T10:00:00Z"}"#.utf8)
        bytes[7] = 0xFF
        #expect(throws: EventDecodingError.self) { try EventCodec.decode(bytes) }
    }

    @Test func timestampsRoundTripWithTheirFraction() {
        for s in ["2026-01-06T10:00:00Z", "2026-01-06T10:00:00.250Z", "2024-02-29T23:59:59.000001Z", "1999-12-31T00:00:00.123456789Z"] {
            #expect(Timestamp.parse(s)!.description == s)
        }
        #expect(Timestamp.parse("2026-01-06T10:00:00.2Z")!.description == "2026-01-06T10:00:00.200Z")
        #expect(Timestamp.parse("2025-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("2026-01-06T24:00:00Z") == nil)
    }

    @Test func moneyIsExactDecimal() {
        #expect(Money.parse("9.99")!.description == "9.99")
        #expect(Money.parse("10")!.description == "10.00")
        #expect(Money.parse("0.000001")!.micros == 1)
        #expect(Money.parse("1.") == nil && Money.parse(".5") == nil && Money.parse("-.5") == nil && Money.parse("-") == nil && Money.parse("1e3") == nil)
        // A sign reads (a log an older importer wrote may hold one); the import door refuses it (ValueRanges.prices).
        #expect(Money.parse("-1")!.micros == -1_000_000 && Money.parse("-1")!.description == "-1.00")
        #expect(Money.parse("9.99")!.percent(15).description == "1.4985")
    }
}

/// Field names, event types and enum values are matched in place against frozen tag tables; a
/// name written any other legal way (escapes) must fall back to the scan and mean the same.
@Suite struct TagLookup {
    static func quoted(_ table: TagTable, _ text: String) -> (index: Int, length: Int)? {
        Array(text.utf8).withUnsafeBytes { table.quotedPrefix(of: $0) }
    }

    static func indexed(_ table: TagTable, _ text: String) -> Int? {
        Array(text.utf8).withUnsafeBytes { table.index(of: $0) }
    }

    @Test func everyTagIsFoundInPlaceAndByItsBytes() {
        for (i, type) in EventType.allCases.enumerated() {
            #expect(Self.indexed(EventType.tags, type.rawValue) == i)
            #expect(Self.quoted(EventType.tags, type.rawValue + #"","user""#)?.index == i)
            #expect(Self.quoted(EventType.tags, type.rawValue + #"","user""#)?.length == type.rawValue.utf8.count)
        }
        for (i, field) in EventField.allCases.enumerated() {
            #expect(Self.indexed(EventField.tags, field.rawValue) == i)
            #expect(Self.quoted(EventField.tags, field.rawValue + #"":1}"#)?.index == i)
        }
    }

    @Test func aTagThatIsThePrefixOfAnotherIsMatchedOnlyWhenTheQuoteFollows() {
        let plan = EventField.allCases.firstIndex(of: .plan)!
        let planState = EventField.allCases.firstIndex(of: .planState)!
        #expect(Self.quoted(EventField.tags, #"plan":"x""#)?.index == plan)
        #expect(Self.quoted(EventField.tags, #"planState":"x""#)?.index == planState)
        #expect(Self.quoted(EventField.tags, #"planStat":"x""#) == nil)
        #expect(Self.quoted(EventField.tags, #"plans":"x""#) == nil)
        #expect(Self.quoted(EventField.tags, #"plan\u0053tate":"x""#) == nil)
        #expect(Self.quoted(EventField.tags, "plan") == nil, "no closing quote before the end")
        #expect(Self.indexed(EventField.tags, "planStat") == nil && Self.indexed(EventField.tags, "") == nil)
        #expect(Self.indexed(EventField.tags, "originalTransactionX") == nil)
    }

    @Test func namesAndValuesWrittenWithEscapesDecodeLikeThePlainOnes() throws {
        let plain = try EventCodec.decode(#"{"id":"a","type":"purchase","user":"u","time":"2026-01-06T10:00:00Z","data":{"product":"p","transaction":"t","expires":"2026-01-13T10:00:00Z","offer":"free_trial","environment":"sandbox"},"source":"store"}"#)
        let escaped = try EventCodec.decode(#"{"\u0069d":"a","typ\u0065":"purch\u0061se","user":"u","time":"2026-01-06T10:00:00Z","data":{"pro\u0064uct":"p","transaction":"t","expires":"2026-01-13T10:00:00Z","offer":"free\u005ftrial","environment":"s\u0061ndbox"},"sourc\u0065":"st\u006fre"}"#)
        #expect(escaped == plain)
        #expect(plain.type == .purchase && plain.allFields.offer == .freeTrial && plain.allFields.environment == .sandbox && plain.source == .store)
    }

    @Test func aFieldNameFollowedBySpaceBeforeItsColonIsStillRead() throws {
        let e = try EventCodec.decode(#"{"id" :"a","type"\#t:"revoke" ,"user":"u","time":"2026-01-06T10:00:00Z","data" : {"reason" :"x"}}"#)
        #expect(e.id == "a" && e.type == .revoke && e.allFields.reason == "x")
    }
}
