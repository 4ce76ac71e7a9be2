import Testing
import Reports
import SubscriptionDomain

/// The JSON every command prints: keys in the order given, strings escaped as the event codec
/// escapes them, rates with four decimals, times as RFC 3339 or null.
@Suite struct JSONRendering {
    @Test func objectsKeepTheirKeysInTheOrderGiven() {
        let value = JSON.object([("b", .int(1)), ("a", .array([.bool(true), .null])), ("c", .double(0.5))])
        #expect(value.rendered == #"{"b":1,"a":[true,null],"c":0.5000}"#)
    }

    @Test func stringsAreEscapedAsTheEventCodecEscapesThem() {
        #expect(JSON.string("say \"hi\"\n\u{01}").rendered == #""say \"hi\"\n\u0001""#)
    }

    @Test func anAbsentTimeOrTextIsNull() {
        #expect(JSON.time(nil).rendered == "null" && JSON.text(nil).rendered == "null")
        #expect(JSON.time(Timestamp.parse("2026-01-05T09:00:00Z")).rendered == #""2026-01-05T09:00:00Z""#)
    }
}
