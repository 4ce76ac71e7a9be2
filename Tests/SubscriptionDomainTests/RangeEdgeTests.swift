import Foundation
import Testing
@testable import SubscriptionDomain

/// Range edges the first range tests did not reach: one micro-unit below zero, and decimal
/// amounts whose conversion to micro-units wraps around 64 bits into the accepted range.
@Suite struct RangeEdges {
    typealias Door = AcceptedRanges

    @Test func aPriceOneMicroUnitBelowZeroIsRefused() {
        #expect(Door.refusal(Door.purchase(price: "-0.000001"))?.contains("data.price") == true)
        #expect(Door.refusal(Door.purchase(price: "0.000000")) == nil && Door.refusal(Door.purchase(price: "-0")) == nil)
        #expect(ProfileRanges.refusal { ProfileRanges.product(&$0, 0, "price", "-0.000001") }?.hasPrefix("products[0].price:") == true)
    }

    /// 18446744073710 × 10^6 micro-units is 2^64 + 448384: wrapped, it would read as 0.448384
    /// (18446744073709.6 as 0.048384, 36893488147420 as 0.896768).
    @Test func anAmountWhoseMicroUnitsWrapAround64BitsIsRefusedNotReadAsASmallOne() {
        for p in ["18446744073710", "18446744073709.6", "36893488147420", "9223372036855"] {
            #expect(Money.parse(p) == nil, "\(p) parsed as \(String(describing: Money.parse(p)))")
            let reason = Door.refusal(Door.purchase(price: p))
            #expect(reason?.contains("data.price") == true && reason?.contains("out of range") == true, "price \(p): \(reason ?? "accepted")")
            #expect(ProfileRanges.refusal { ProfileRanges.product(&$0, 0, "price", p) }?.hasPrefix("products[0].price:") == true, "profile price \(p)")
        }
    }

    /// `ValueRanges.check` is the door for events from any source, not only from the codec (which
    /// refuses a quantity below 1 itself): an event made in code with quantity 0 or -1 is refused
    /// there, and the messages give the range as it is.
    @Test func theDoorRefusesAQuantityBelowOneWhateverMadeTheEvent() {
        for (quantity, ok) in [(0, false), (-1, false), (1, true), (1_000_000, true), (1_000_001, false)] {
            var data = EventFields()
            data.product = "howru_sms_20"
            data.transaction = "t1"
            data.quantity = quantity
            let event = Event(id: "e1", type: .consumablePurchase, user: "u1", time: Timestamp.parse("2026-01-06T10:00:00Z")!, fields: data)
            do {
                try ValueRanges.check(event)
                #expect(ok, "quantity \(quantity) accepted")
            } catch {
                #expect(!ok && error.description.contains("data.quantity") && error.description.contains("accepted: 1 to 1000000"), "quantity \(quantity): \(error)")
            }
        }
        #expect(Door.refusal(Door.credits("1000001"))?.contains("accepted: 1 to 1000000") == true)
    }
}
