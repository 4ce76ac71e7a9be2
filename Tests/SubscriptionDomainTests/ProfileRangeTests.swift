import Foundation
import Testing
@testable import SubscriptionDomain

/// Profile numbers and names are checked when a profile is loaded.
@Suite struct ProfileRanges {
    /// The howru profile as a JSON object (it has every kind of product), changed by `edit`, then loaded.
    static func load(_ edit: (inout [String: Any]) -> Void) throws(ProfileError) -> Profile {
        var o = try! JSONSerialization.jsonObject(with: Data(Profile.howru.encodedJSON().utf8)) as! [String: Any]
        edit(&o)
        return try Profile.decode(json: [UInt8](try! JSONSerialization.data(withJSONObject: o)))
    }

    static func refusal(_ edit: (inout [String: Any]) -> Void) -> String? {
        do { _ = try load(edit); return nil } catch { return error.description }
    }

    static func product(_ o: inout [String: Any], _ i: Int, _ key: String, _ value: Any) {
        var products = o["products"] as! [[String: Any]]
        products[i][key] = value
        o["products"] = products
    }

    @Test func eachProfileNumberIsAcceptedAtItsBoundsAndRefusedOutside() {
        let numbers: [(String, Int, Int)] = [("trialDays", 0, 3650), ("billingGraceDays", 0, 3650), ("unverifiedGraceHours", 0, 87_600),
                                             ("trialReminderLeadHours", 0, 87_600), ("commissionPercent", 0, 100)]
        for (field, low, high) in numbers {
            for v in [low, high] { #expect(Self.refusal { $0[field] = v } == nil, "\(field) \(v)") }
            for v: Any in [low - 1, high + 1, Int.max, Int.min, 1e15] {
                let reason = Self.refusal { $0[field] = v }
                #expect(reason?.hasPrefix(field + ":") == true, "\(field) \(v): \(reason ?? "accepted")")
            }
        }
        // products[0] is a monthly subscription, products[4] a credit pack.
        let productNumbers: [(Int, String, Int, Int)] = [(0, "periodMonths", 1, 120), (4, "credits", 1, 1_000_000)]
        for (i, field, low, high) in productNumbers {
            for v in [low, high] { #expect(Self.refusal { Self.product(&$0, i, field, v) } == nil, "\(field) \(v)") }
            for v: Any in [low - 1, high + 1, Int.max, 1e15] {
                let reason = Self.refusal { Self.product(&$0, i, field, v) }
                #expect(reason?.hasPrefix("products[\(i)].\(field):") == true, "\(field) \(v): \(reason ?? "accepted")")
            }
        }
        for p in ["0", "1000000000", "999999999.999999"] { #expect(Self.refusal { Self.product(&$0, 0, "price", p) } == nil, "price \(p)") }
        for p in ["1000000000.000001", "9999999999999", "-1", "99999999999999999999"] {
            let reason = Self.refusal { Self.product(&$0, 0, "price", p) }
            #expect(reason?.hasPrefix("products[0].price:") == true, "price \(p): \(reason ?? "accepted")")
        }
    }

    @Test func aProfileTypeErrorNamesTheFieldAndWhyOnOneLine() {
        let cases: [((inout [String: Any]) -> Void, String)] = [
            ({ $0["trialDays"] = 1.5 }, "trialDays"),
            ({ $0["billingGraceDays"] = Decimal(string: "99999999999999999999")! }, "billingGraceDays"),
            ({ Self.product(&$0, 1, "periodMonths", 0.5) }, "products[1].periodMonths"),
            ({ $0["trialDays"] = "seven" }, "trialDays"),
        ]
        for (edit, field) in cases {
            let reason = Self.refusal(edit)
            #expect(reason?.hasPrefix(field + ":") == true && reason?.contains("\n") != true, "\(field): \(reason ?? "accepted")")
            #expect(reason?.contains("not valid JSON") != true)
        }
        #expect(Self.refusal { $0["trialDays"] = 1.5 }?.contains("1.5") == true)
        let cut = #expect(throws: ProfileError.self, "a cut profile loaded") { try Profile.decode(json: Array(#"{"name": "x","#.utf8)) }
        #expect(cut?.description.contains("not valid JSON") == true && cut?.description.contains("\n") == false)
    }

    @Test func profileNamesAreShortPlainAndNeverAPath() {
        for name in ["a", "handz", "my-app_2.v1", String(repeating: "x", count: 64), "A.b-C_9"] {
            #expect(Self.refusal { $0["name"] = name } == nil, "name \(name)")
        }
        for name in ["", ".", "..", ".hidden", "../../../../outside/evil", "/etc/passwd", "a/b", "a\\b", "a b", "naïve", "tab\t",
                     String(repeating: "x", count: 65), "nul\u{0}"] {
            let reason = Self.refusal { $0["name"] = name }
            #expect(reason?.hasPrefix("name:") == true && reason?.contains("\n") != true, "name \(name): \(reason ?? "accepted")")
        }
        for p in Profile.builtIn { #expect(throws: Never.self) { try p.validate() } }
    }
}
