import Foundation

/// Why a profile file is not usable, naming the field.
public struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String
    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}

extension Profile {
    /// Decodes and checks a profile written as JSON (the same shape `profiles show --format json` prints).
    public static func decode(json: [UInt8]) throws(ProfileError) -> Profile {
        let profile: Profile
        do {
            profile = try JSONDecoder().decode(Profile.self, from: Data(json))
        } catch let DecodingError.keyNotFound(key, context) {
            throw ProfileError(field: path(context.codingPath + [key]), reason: "missing")
        } catch let DecodingError.typeMismatch(type, context) {
            throw ProfileError(field: path(context.codingPath), reason: "expected \(type)")
        } catch let DecodingError.valueNotFound(type, context) {
            throw ProfileError(field: path(context.codingPath), reason: "expected \(type), found null")
        } catch let DecodingError.dataCorrupted(context) {
            throw ProfileError(field: path(context.codingPath), reason: context.debugDescription)
        } catch {
            throw ProfileError(field: "", reason: "not a profile: \(error)")
        }
        try profile.validate()
        return profile
    }

    /// The profile as pretty JSON.
    public func encodedJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// Checks the rules a decoded profile must follow.
    public func validate() throws(ProfileError) {
        func check(_ ok: Bool, _ field: String, _ reason: String) throws(ProfileError) {
            if !ok { throw ProfileError(field: field, reason: reason) }
        }
        try check(!name.isEmpty, "name", "must not be empty")
        try check(!products.isEmpty, "products", "must list at least one product")
        try check(trialDays >= 0, "trialDays", "must be 0 or more")
        try check(billingGraceDays >= 0, "billingGraceDays", "must be 0 or more")
        try check(unverifiedGraceHours >= 0, "unverifiedGraceHours", "must be 0 or more")
        try check(trialReminderLeadHours >= 0, "trialReminderLeadHours", "must be 0 or more")
        try check((0...100).contains(commissionPercent), "commissionPercent", "must be between 0 and 100")
        try check(tier("free") != nil, "tiers", "must include a tier named free")
        var ids: Set<String> = []
        for (i, p) in products.enumerated() {
            try check(ids.insert(p.id).inserted, "products[\(i)].id", "duplicate product id '\(p.id)'")
            try check(Money.parse(p.price) != nil, "products[\(i)].price", "'\(p.price)' is not a decimal amount such as 9.99")
            if p.kind == .autoRenewable {
                try check(p.group != nil, "products[\(i)].group", "missing for an auto-renewable product")
                try check((p.periodMonths ?? 0) > 0, "products[\(i)].periodMonths", "must be 1 or more for an auto-renewable product")
            } else {
                try check((p.credits ?? 0) > 0, "products[\(i)].credits", "must be 1 or more for a consumable")
            }
            if let t = p.tier { try check(tier(t) != nil, "products[\(i)].tier", "no tier named '\(t)'") }
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for k in keys {
            if let i = k.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + k.stringValue }
        }
        return out
    }
}
