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
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            // Foundation says only "not valid JSON", for bad syntax and for a number that is not a
            // whole Int alike: find which.
            throw whyNotJSON(json)
        } catch let DecodingError.dataCorrupted(context) {
            throw ProfileError(field: path(context.codingPath), reason: oneLine(context.debugDescription))
        } catch {
            throw ProfileError(field: "", reason: oneLine("not a profile: \(error)"))
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

    /// Checks the rules a decoded profile must follow, numbers within `ValueRanges`.
    public func validate() throws(ProfileError) {
        func check(_ ok: Bool, _ field: String, _ reason: @autoclosure () -> String) throws(ProfileError) {
            if !ok { throw ProfileError(field: field, reason: reason()) }
        }
        func range(_ value: Int, _ accepted: ClosedRange<Int>, _ field: String) throws(ProfileError) {
            try check(accepted.contains(value), field, "\(value) is out of range (accepted: \(accepted.lowerBound) to \(accepted.upperBound))")
        }
        try check(Self.isValidName(name), "name",
                  "must be \(ValueRanges.profileNameLength.lowerBound) to \(ValueRanges.profileNameLength.upperBound) characters from A-Z, a-z, 0-9, '.', '_' and '-', not starting with '.'")
        try check(!products.isEmpty, "products", "must list at least one product")
        try range(trialDays, ValueRanges.days, "trialDays")
        try range(billingGraceDays, ValueRanges.days, "billingGraceDays")
        try range(unverifiedGraceHours, ValueRanges.hours, "unverifiedGraceHours")
        try range(trialReminderLeadHours, ValueRanges.hours, "trialReminderLeadHours")
        try range(commissionPercent, ValueRanges.percents, "commissionPercent")
        try check(tier("free") != nil, "tiers", "must include a tier named free")
        if let e = unknownProductEntitlement {
            try check(products.contains { $0.entitlement == e }, "unknownProductEntitlement", "no product grants entitlement '\(e)'")
        }
        var ids: Set<String> = []
        for (i, p) in products.enumerated() {
            try check(ids.insert(p.id).inserted, "products[\(i)].id", "duplicate product id '\(p.id)'")
            let price = Money.parse(p.price)
            try check(price != nil || Money.isDecimal(p.price), "products[\(i)].price", "'\(p.price)' is not a decimal amount such as 9.99")
            try check(price.map(ValueRanges.prices.contains) == true, "products[\(i)].price", "'\(p.price)' is out of range (\(ValueRanges.pricesText))")
            if p.kind == .autoRenewable {
                try check(p.group != nil, "products[\(i)].group", "missing for an auto-renewable product")
                try check(p.periodMonths != nil, "products[\(i)].periodMonths", "missing for an auto-renewable product")
            } else {
                try check(p.credits != nil, "products[\(i)].credits", "missing for a consumable")
            }
            if let months = p.periodMonths { try range(months, ValueRanges.periodMonths, "products[\(i)].periodMonths") }
            if let credits = p.credits { try range(credits, ValueRanges.credits, "products[\(i)].credits") }
            if let t = p.tier { try check(tier(t) != nil, "products[\(i)].tier", "no tier named '\(t)'") }
        }
    }

    /// 1 to 64 characters from A-Z, a-z, 0-9, `.`, `_`, `-`, not starting with `.` (the name
    /// becomes part of a file name: never a path, never hidden).
    public static func isValidName(_ name: String) -> Bool {
        ValueRanges.profileNameLength.contains(name.utf8.count) && name.utf8.first != UInt8(ascii: ".")
            && name.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x5F || c == 0x2D
            }
    }

    /// Why JSON that Foundation refused with no path is not a profile: a number that is not a
    /// whole Int (named by its path), or the syntax error JSONSerialization finds.
    private static func whyNotJSON(_ json: [UInt8]) -> ProfileError {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            return ProfileError(field: "", reason: oneLine("not valid JSON: \(detail)"))
        }
        if let (field, number) = firstNonInteger(root, path: "") {
            return ProfileError(field: field, reason: oneLine("expected a whole number within 64 bits, found \(number)"))
        }
        return ProfileError(field: "", reason: "not valid JSON")
    }

    /// The path and text of the first number (keys in order) that is not a whole number fitting in Int.
    private static func firstNonInteger(_ value: Any, path: String) -> (String, String)? {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                if let found = firstNonInteger(object[key]!, path: path.isEmpty ? key : path + "." + key) { return found }
            }
        } else if let array = value as? [Any] {
            for (i, element) in array.enumerated() {
                if let found = firstNonInteger(element, path: path + "[\(i)]") { return found }
            }
        } else if let n = value as? NSNumber, !(value is String) {
            if Int(n.stringValue) != nil { return nil }
            let d = n.doubleValue
            if d.rounded() == d, Int(exactly: d) != nil { return nil }
            return (path, n.stringValue)
        }
        return nil
    }

    /// `text` on one line: an error message never splits a line of output.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for k in keys {
            if let i = k.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + k.stringValue }
        }
        return out
    }
}
