import Foundation
import Testing
@testable import SubscriptionDomain
import StoreAdapters
import StoreFixtures

/// The accepted ranges (docs/rules.md#ranges): each boundary accepted at its min and max and
/// refused one step outside and far outside, at the door (import, profile load); arithmetic past
/// the door saturates instead of trapping.
@Suite struct AcceptedRanges {
    typealias F = StoreFixtures

    /// A canonical line through the import door.
    static func admit(_ line: String) throws -> [Event] {
        guard case .events(let list) = try F.map(line, .canonical) else { return [] }
        return list
    }

    /// The reason the door gives for refusing `line`, or nil if it was accepted.
    static func refusal(_ line: String) -> String? {
        do { _ = try admit(line); return nil } catch { return "\(error)" }
    }

    static func purchase(time: String = "2026-01-06T10:00:00Z", expires: String = "2026-02-06T10:00:00Z", price: String = "9.99") -> String {
        #"{"id":"e1","type":"purchase","user":"u1","time":"\#(time)","data":{"product":"handz.pro.monthly","transaction":"t1","expires":"\#(expires)","price":"\#(price)","currency":"USD"}}"#
    }

    static func billingIssue(time: String, graceExpires: String) -> String {
        #"{"id":"e2","type":"billing_issue","user":"u1","time":"\#(time)","data":{"graceExpires":"\#(graceExpires)"}}"#
    }

    static func pause(time: String, resumesAt: String) -> String {
        #"{"id":"e4","type":"pause","user":"u1","time":"\#(time)","data":{"resumesAt":"\#(resumesAt)"}}"#
    }

    static func credits(_ quantity: String) -> String {
        #"{"id":"e3","type":"consumable_purchase","user":"u1","time":"2026-01-06T10:00:00Z","data":{"product":"howru_sms_20","transaction":"t9","quantity":\#(quantity)}}"#
    }

    static let inside = ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000001Z", "2199-12-31T23:59:59Z", "2199-12-31T23:59:59.999999999Z",
                         "2199-12-31T23:59:59-00:00", "1970-01-01T01:00:00+01:00"]
    static let outside = ["1969-12-31T23:59:59.999999999Z", "1970-01-01T00:59:59+01:00", "2200-01-01T00:00:00Z", "2199-12-31T23:00:00-01:00",
                          "2262-04-11T23:47:16.854775807Z", "2262-04-11T23:47:17Z", "2263-01-01T00:00:00Z", "1677-09-21T00:12:43Z",
                          "1677-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"]

    @Test func everyTimeFieldIsAcceptedFrom1970UpTo2200AndRefusedOutside() throws {
        let (first, last) = ("1970-01-01T00:00:00Z", "2199-12-31T23:59:59.999999999Z")
        for t in Self.inside {
            // A paid period ends after it starts: each bound as the start of a period ending at the
            // last instant, and as the end of one starting at the first (but the bounds themselves).
            if Timestamp.parse(t)! < Timestamp.parse(last)! { #expect(Self.refusal(Self.purchase(time: t, expires: last)) == nil, "time \(t)") }
            if Timestamp.parse(t)! > Timestamp.parse(first)! { #expect(Self.refusal(Self.purchase(time: first, expires: t)) == nil, "expires \(t)") }
            #expect(Self.refusal(Self.billingIssue(time: t, graceExpires: t)) == nil, "graceExpires \(t)")
            #expect(Self.refusal(Self.pause(time: t, resumesAt: t)) == nil, "resumesAt \(t)")
        }
        for t in Self.outside {
            for (line, field) in [(Self.purchase(time: t), "'time'"), (Self.purchase(expires: t), "'data.expires'"),
                                  (Self.billingIssue(time: "2026-01-06T10:00:00Z", graceExpires: t), "'data.graceExpires'"),
                                  (Self.pause(time: "2026-01-06T10:00:00Z", resumesAt: t), "'data.resumesAt'")] {
                let reason = Self.refusal(line)
                #expect(reason?.contains(field) == true && reason?.contains("out of range") == true && reason?.contains("2200-01-01T00:00:00Z") == true,
                        "\(field) \(t): \(reason ?? "accepted")")
                #expect(reason?.contains("\n") != true)
            }
        }
    }

    @Test func aPaidPeriodThatEndsWhenOrBeforeItStartsIsRefusedFromEverySource() {
        let renewal = { (expires: String) in
            #"{"id":"r1","type":"renewal","user":"u1","time":"2026-01-06T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"t2","expires":"\#(expires)"}}"#
        }
        // Canonical lines: expires in 1970 (seconds read as an instant), at the time itself, one nanosecond later.
        #expect(Self.refusal(Self.purchase(expires: "1970-01-21T12:30:50Z"))?.contains("field 'data.expires': 1970-01-21T12:30:50Z is not after the purchase's time 2026-01-06T10:00:00Z") == true)
        #expect(Self.refusal(Self.purchase(expires: "2026-01-06T10:00:00Z"))?.contains("is not after") == true)
        #expect(Self.refusal(renewal("2026-01-06T09:00:00Z"))?.contains("is not after the renewal's time") == true)
        #expect(Self.refusal(Self.purchase(expires: "2026-01-06T10:00:00.000000001Z")) == nil)
        #expect(Self.refusal(renewal("2026-02-06T10:00:00Z")) == nil)
        // Store payloads: a date in seconds is named as such, before it could become a 1970 instant.
        func store(_ line: String, _ source: PayloadSource) -> String? {
            do { _ = try F.map(line, source); return nil } catch { return "\(error)" }
        }
        #expect(store(F.revenuecat("INITIAL_PURCHASE", ["expiration_at_ms": 1_773_050_400]), .revenuecat)?
            .contains("event.expiration_at_ms: 1773050400 is seconds, not milliseconds") == true)
        #expect(store(F.apple("SUBSCRIBED", "INITIAL_BUY", tx: F.transaction(["purchaseDate": 1_775_000_000, "expiresDate": 1_777_592_000])), .appstore)?
            .contains("is seconds, not milliseconds") == true)
        #expect(store(F.revenuecat("INITIAL_PURCHASE", ["expiration_at_ms": 100_000_000_000]), .revenuecat)?.contains("is not after") == true)
        #expect(store(F.revenuecat("INITIAL_PURCHASE"), .revenuecat) == nil)
    }

    @Test func pricesAreAcceptedFromZeroToOneBillionWithSixDecimals() {
        for p in ["0", "0.000001", "9.99", "999999999.999999", "1000000000", "1000000000.000000"] {
            #expect(Self.refusal(Self.purchase(price: p)) == nil, "price \(p)")
        }
        for p in ["1000000000.000001", "1000000001", "9000000000000", "9999999999999", "9223372036854.775807", "9999999999999999999",
                  "99999999999999999999", "999999999999999999999999999999", "-0.01", "-9.99", "0.0000001"] {
            let reason = Self.refusal(Self.purchase(price: p))
            #expect(reason?.contains("data.price") == true, "price \(p): \(reason ?? "accepted")")
        }
    }

    @Test func quantitiesAreAcceptedFromOneToAMillion() {
        for q in ["1", "1000000"] { #expect(Self.refusal(Self.credits(q)) == nil, "quantity \(q)") }
        for q in ["0", "-1", "1000001", "1000000000", "9223372036854775807", "99999999999999999999", "1.5", "1e6"] {
            let reason = Self.refusal(Self.credits(q))
            #expect(reason?.contains("data.quantity") == true, "quantity \(q): \(reason ?? "accepted")")
        }
    }

    @Test func userAndEventIDsWithControlCharactersAreRefused() {
        func line(id: String = "e1", user: String = "u1", to: String = "u2") -> String {
            #"{"id":"\#(id)","type":"transfer","user":"\#(user)","time":"2026-01-06T10:00:00Z","data":{"to":"\#(to)"}}"#
        }
        #expect(Self.refusal(line()) == nil)
        #expect(Self.refusal(line(user: "ü-\\u0080-\\u00a0 x")) == nil)
        for bad in ["a\\u0000b", "\\u0000", "a\\u001fb", "tab\\tb", "new\\nline", "del\u{7F}", "del\\u007f"] {
            for (l, field) in [(line(user: bad), "'user'"), (line(id: bad), "'id'"), (line(to: bad), "'data.to'")] {
                let reason = Self.refusal(l)
                #expect(reason?.contains(field) == true && reason?.contains("control character") == true, "\(field) \(bad): \(reason ?? "accepted")")
                #expect(reason?.contains("\n") != true && reason?.contains("\u{0}") != true)
            }
        }
    }

    @Test func storePayloadTimesPricesAndQuantitiesAreCheckedBeforeTheyAreConverted() {
        func refusal(_ line: String, _ source: PayloadSource) -> String? {
            do { _ = try F.map(line, source, profile: .howru); return nil } catch { return "\(error)" }
        }
        #expect(refusal(F.apple("SUBSCRIBED", tx: F.transaction(["expiresDate": Int64(7_258_118_399_999)])), .appstore) == nil)
        #expect(refusal(F.apple("SUBSCRIBED", tx: F.transaction(["price": Int64(1_000_000_000_000)])), .appstore) == nil)
        for (extra, field) in [(["expiresDate": Int64.max], "expiresDate"), (["expiresDate": Int64(7_258_118_400_000)], "expiresDate"),
                               (["expiresDate": -1], "expiresDate"), (["purchaseDate": Int64.min], "purchaseDate"),
                               (["expiresDate": 1e20], "expiresDate"), (["expiresDate": 1.5], "expiresDate"),
                               (["price": Int64.max], "price"), (["price": Int64(1_000_000_000_001)], "price"), (["price": -9990], "price"),
                               (["price": Decimal(string: "99999999999999999999")!], "price")] as [([String: Any], String)] {
            let reason = refusal(F.apple("SUBSCRIBED", tx: F.transaction(extra)), .appstore)
            #expect(reason?.contains(field) == true, "\(extra): \(reason ?? "accepted")")
        }
        let pack = F.transaction(["productId": "howru_sms_20", "quantity": Int64.max])
        #expect(refusal(F.apple("ONE_TIME_CHARGE", tx: pack), .appstore)?.contains("quantity") == true)
        for (extra, field) in [(["event_timestamp_ms": Int64.max], "event_timestamp_ms"), (["expiration_at_ms": Int64.max], "expiration_at_ms"),
                               (["purchased_at_ms": -1], "purchased_at_ms"), (["price_in_purchased_currency": 1e13], "price_in_purchased_currency"),
                               (["price_in_purchased_currency": 1e300], "price_in_purchased_currency")] as [([String: Any], String)] {
            let reason = refusal(F.revenuecat("RENEWAL", extra), .revenuecat)
            #expect(reason?.contains(field) == true, "\(extra): \(reason ?? "accepted")")
        }
    }

    @Test func arithmeticPastTheDoorSaturatesInsteadOfTrapping() {
        let latest = Timestamp(nanoseconds: .max), earliest = Timestamp(nanoseconds: .min)
        #expect(latest + .days(3) == latest && earliest - .hours(48) == earliest)
        #expect(Timestamp.Duration.days(.max).nanoseconds == .max && Timestamp.Duration.hours(.min).nanoseconds == .min)
        #expect(Timestamp(seconds: .max) == latest && Timestamp(milliseconds: .min) == earliest)
        let t = Timestamp.parse("2026-01-31T10:00:00Z")!
        #expect(Timestamp.addMonths(1, to: t) == Timestamp.parse("2026-02-28T10:00:00Z")!)
        #expect(Timestamp.addMonths(.max, to: t) == latest && Timestamp.addMonths(.min, to: t) == earliest)
        #expect(Timestamp.addMonths(3000, to: t) == latest)
        let most = Money(micros: .max), least = Money(micros: .min)
        #expect(most + Money(micros: 1) == most && least - Money(micros: 1) == least)
        var sum = Money.zero
        for _ in 0..<3 { sum += Money.parse("9000000000000")! }
        #expect(sum == most)
        #expect(most.percent(100) == most && most.percent(15).micros > 0 && least.percent(30).micros < 0)
        #expect(most.scaled(by: 1, over: 12).micros == Int64.max / 12 + 1 && most.scaled(by: 2, over: 1) == most)
        #expect(Money.parse("9.99")!.percent(15) == Money.parse("1.4985")! && Money.parse("79.99")!.scaled(by: 1, over: 12) == Money.parse("6.665833")!)
    }
}
