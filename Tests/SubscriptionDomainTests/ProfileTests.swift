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
        var json = Profile.handz.encodedJSON().replacingOccurrences(of: #""billingGraceDays" : 3"#, with: #""billingGraceDays" : "three""#)
        #expect(throws: ProfileError.self) { try Profile.decode(json: Array(json.utf8)) }
        do { _ = try Profile.decode(json: Array(json.utf8)) } catch { #expect(error.field == "billingGraceDays") }
        json = Profile.handz.encodedJSON().replacingOccurrences(of: #""price" : "9.99""#, with: #""price" : "nine""#)
        do { _ = try Profile.decode(json: Array(json.utf8)) } catch { #expect(error.description == "products[0].price: 'nine' is not a decimal amount such as 9.99") }
        json = Profile.handz.encodedJSON().replacingOccurrences(of: #""trialDays" : 7,"#, with: "")
        do { _ = try Profile.decode(json: Array(json.utf8)) } catch { #expect(error.description == "trialDays: missing") }
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
