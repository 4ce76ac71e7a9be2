import Testing
@testable import SubscriptionDomain

@Suite struct Profiles {
    @Test func fiveBuiltInProfilesShipWithTheSeedsValues() throws {
        #expect(Profile.builtIn.map(\.name) == ["handz", "mirrormate", "tomo", "howru", "sportstime"])
        for p in Profile.builtIn { try p.validate() }
        #expect(Profile.handz.billingGraceDays == 3 && Profile.handz.unverifiedGraceHours == 24 && Profile.handz.trialDays == 7)
        #expect(Profile.handz.product("handz.pro.monthly")?.price == "9.99")
        #expect(Profile.mirrormate.tier("free")?.limits["analysesPerDay"] == .count(1))
        #expect(Profile.howru.product("howru_sms_50")?.credits == 50)
        #expect(Profile.howru.tier("family")?.limits["checkers"] == .count(5))
        #expect(Profile.sportstime.familySharing && !Profile.handz.familySharing)
        #expect(Profile.tomo.product("tomo.pro.yearly")?.periodMonths == 12)
    }

    @Test func aProfileFileRoundTrips() throws {
        let json = Profile.howru.encodedJSON()
        #expect(try Profile.decode(json: Array(json.utf8)) == Profile.howru)
    }

    @Test func aBadProfileNamesTheField() {
        let word = Profile.handz.encodedJSON().replacingOccurrences(of: #""billingGraceDays" : 3"#, with: #""billingGraceDays" : "three""#)
        let typeError = #expect(throws: ProfileError.self) { try Profile.decode(json: Array(word.utf8)) }
        #expect(typeError?.field == "billingGraceDays")
        let price = Profile.handz.encodedJSON().replacingOccurrences(of: #""price" : "9.99""#, with: #""price" : "nine""#)
        #expect(throws: ProfileError(field: "products[0].price", reason: "'nine' is not a decimal amount such as 9.99")) {
            try Profile.decode(json: Array(price.utf8))
        }
        let missing = Profile.handz.encodedJSON().replacingOccurrences(of: #""trialDays" : 7,"#, with: "")
        #expect(throws: ProfileError(field: "trialDays", reason: "missing")) { try Profile.decode(json: Array(missing.utf8)) }
    }

    /// A product's price is a decimal amount within the import door's range (docs/rules.md#ranges).
    @Test(arguments: [
        ("9.999.9", "is not a decimal amount such as 9.99"), ("abc", "is not a decimal amount such as 9.99"),
        ("9.9999999", "is not a decimal amount such as 9.99"), ("", "is not a decimal amount such as 9.99"),
        ("9.", "is not a decimal amount such as 9.99"), (".99", "is not a decimal amount such as 9.99"),
        ("1e3", "is not a decimal amount such as 9.99"), ("+9.99", "is not a decimal amount such as 9.99"),
        (" 9.99", "is not a decimal amount such as 9.99"), ("9,99", "is not a decimal amount such as 9.99"),
        ("-1", "is out of range (accepted: 0 to 1000000000, up to 6 decimals)"),
        ("-0.01", "is out of range (accepted: 0 to 1000000000, up to 6 decimals)"),
        ("1000000000.000001", "is out of range (accepted: 0 to 1000000000, up to 6 decimals)"),
    ])
    func aProfileWithABadProductPriceIsRefusedNamingTheField(price: String, why: String) {
        let json = Profile.handz.encodedJSON().replacingOccurrences(of: #""price" : "9.99""#, with: #""price" : "\#(price)""#)
        #expect(throws: ProfileError(field: "products[0].price", reason: "'\(price)' \(why)")) { try Profile.decode(json: Array(json.utf8)) }
        #expect(throws: ProfileError(field: "products[0].price", reason: "'\(price)' \(why)")) {
            var profile = Profile.handz
            profile.products[0].price = price
            try profile.validate()
        }
    }

    @Test func aProfileWithAPlainProductPriceLoads() throws {
        for price in ["0", "9.99", "10", "0.000001", "1000000000"] {
            let json = Profile.handz.encodedJSON().replacingOccurrences(of: #""price" : "9.99""#, with: #""price" : "\#(price)""#)
            #expect(try Profile.decode(json: Array(json.utf8)).products[0].price == price)
        }
    }
}

extension String {
    func replacingOccurrences(of a: String, with b: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let r = rest.range(of: a) { out += rest[..<r.lowerBound] + b; rest = rest[r.upperBound...] }
        return out + rest
    }
}
