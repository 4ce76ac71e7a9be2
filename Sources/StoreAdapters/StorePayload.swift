import SubscriptionDomain
import EventCodec
import Foundation

/// Where an imported line comes from: our canonical events, or a store's own payloads.
public enum PayloadSource: String, Sendable, CaseIterable {
    case canonical
    /// App Store Server Notifications V2, decoded (JWS signatures checked upstream).
    case appstore
    /// RevenueCat webhooks.
    case revenuecat
}

/// What one store payload means for the ledger.
public enum PayloadMapping: Sendable, Equatable {
    /// The canonical events it carries (usually one).
    case events([Event])
    /// A payload type that carries nothing for the ledger; skipped and counted by type.
    case skipped(String)
}

/// Maps one JSON line of a store payload to canonical events.
public enum StorePayload {
    /// Maps `line` from `source`; `profile` gives the credits of consumable products. This is the
    /// import door: the events it returns are checked against `ValueRanges`.
    public static func map(_ line: UnsafeRawBufferPointer, from source: PayloadSource, profile: Profile) throws(EventDecodingError) -> PayloadMapping {
        var unverified = false
        return try map(line, from: source, profile: profile, unverifiedJWS: &unverified)
    }

    /// The same, setting `unverifiedJWS` when the line was (or held) a signed JWS whose payload
    /// was taken without verifying its signature (App Store `signedPayload`, `signedTransactionInfo`,
    /// `signedRenewalInfo` given as JWS strings).
    ///
    /// `knownUser` says whether the ledger already holds a user (RevenueCat: an event whose
    /// `app_user_id` it does not hold goes to the user of its `original_app_user_id` or `aliases`
    /// that it does, e.g. the anonymous user who bought before logging in).
    /// `userOfTransaction` names the user the ledger knows for an App Store original transaction id,
    /// for a notification without `appAccountToken`.
    public static func map(_ line: UnsafeRawBufferPointer, from source: PayloadSource, profile: Profile,
                           unverifiedJWS: inout Bool, knownUser: (String) -> Bool = { _ in false },
                           userOfTransaction: (String) -> String? = { _ in nil },
                           opener: JWSOpener = .unverified) throws(EventDecodingError) -> PayloadMapping {
        do {
            let mapping: PayloadMapping
            switch source {
            case .canonical: mapping = .events([try EventCodec.decode(line)])
            case .appstore:
                let (root, jws) = try AppStoreNotification.unwrap(try PayloadObject.parse(line), opener: opener, profile: profile)
                mapping = try AppStoreNotification.map(root, profile: profile, userOfTransaction: userOfTransaction)
                unverifiedJWS = jws
            case .revenuecat: mapping = try RevenueCatWebhook.map(try PayloadObject.parse(line), profile: profile, knownUser: knownUser)
            }
            // The door: every event that goes in is within the accepted ranges, whatever it came from.
            if case .events(let list) = mapping { for e in list { try ValueRanges.check(e) } }
            return mapping
        } catch let error as EventDecodingError {
            throw error
        } catch {
            throw EventDecodingError("\(error)")
        }
    }
}

/// A decoded JSON object with typed getters whose errors name the field path.
struct PayloadObject {
    let fields: [String: Any]
    let path: String

    static func parse(_ line: UnsafeRawBufferPointer) throws(EventDecodingError) -> PayloadObject {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)), let fields = object as? [String: Any] else {
            throw EventDecodingError("not a JSON object")
        }
        return PayloadObject(fields: fields, path: "")
    }

    func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func has(_ key: String) -> Bool { fields[key] != nil && !(fields[key] is NSNull) }

    func object(_ key: String) throws -> PayloadObject? {
        guard has(key) else { return nil }
        guard let o = fields[key] as? [String: Any] else { throw EventDecodingError("\(name(key)): expected an object") }
        return PayloadObject(fields: o, path: name(key))
    }

    func string(_ key: String) throws -> String? {
        guard has(key) else { return nil }
        guard let s = fields[key] as? String else { throw EventDecodingError("\(name(key)): expected a string") }
        return s
    }

    func required(_ key: String, for what: String) throws -> String {
        guard let s = try string(key), !s.isEmpty else { throw EventDecodingError("\(what) needs \(name(key))") }
        return s
    }

    /// A whole number that fits in 64 bits (never wrapped or cut: `1e20` and `1.5` are refused).
    func int(_ key: String) throws -> Int64? {
        guard has(key) else { return nil }
        guard let n = number(key) else { throw EventDecodingError("\(name(key)): expected a number") }
        if let v = Int64(n.stringValue) { return v }
        let d = n.doubleValue
        guard d.rounded() == d, let v = Int64(exactly: d) else { throw EventDecodingError("\(name(key)): \(n) is not a whole number that fits in 64 bits") }
        return v
    }

    /// Milliseconds since 1970 as a timestamp, within `ValueRanges.times`.
    func time(_ key: String) throws -> Timestamp? {
        guard let ms = try int(key) else { return nil }
        // Stores write milliseconds since 1970; a value below 10^11 (March 1973 in milliseconds) is
        // plainly seconds, which would put the event in January 1970.
        if ms >= 0 && ms < 100_000_000_000 {
            throw EventDecodingError("\(name(key)): \(ms) is seconds, not milliseconds (as milliseconds it is before March 1973)")
        }
        let t = Timestamp(milliseconds: ms)
        guard ValueRanges.times.contains(t) else {
            throw EventDecodingError("\(name(key)): \(ms) ms is out of range (\(ValueRanges.timesText))")
        }
        return t
    }

    /// A price in milliunits (Apple's `price`), within `ValueRanges.prices`. A number with a
    /// fraction (`9.99`, a decimal price where Apple writes integers) is refused, never truncated.
    func milliunits(_ key: String) throws -> Money? {
        if let n = number(key), Int64(n.stringValue) == nil, n.doubleValue.rounded() != n.doubleValue {
            throw EventDecodingError("\(name(key)): \(n) is not a whole number of milliunits (Apple writes 9.99 as 9990)")
        }
        guard let v = try int(key) else { return nil }
        let m = Money(micros: v.multipliedSaturated(by: 1000))
        guard ValueRanges.prices.contains(m) else {
            throw EventDecodingError("\(name(key)): \(v) milliunits is out of range (\(ValueRanges.pricesText))")
        }
        return m
    }

    /// A decimal amount given as a JSON number (rounded to the micro-unit), within `ValueRanges.prices`.
    /// `refunded`: the amount of money given back, which RevenueCat writes negative (-9.99): its
    /// size is the refund's amount (a positive one is taken as it is).
    func amount(_ key: String, refunded: Bool = false) throws -> Money? {
        guard has(key) else { return nil }
        guard let n = number(key) else { throw EventDecodingError("\(name(key)): expected a number") }
        let value = refunded ? abs(n.doubleValue) : n.doubleValue
        let micros = (value * 1_000_000).rounded()
        guard micros >= 0, micros <= Double(ValueRanges.prices.upperBound.micros) else {
            throw EventDecodingError("\(name(key)): \(n) is out of range (\(ValueRanges.pricesText))")
        }
        return Money(micros: Int64(micros))
    }

    /// A JSON number (not true/false, which Foundation on Linux also hands over as NSNumber).
    private func number(_ key: String) -> NSNumber? {
        guard let n = fields[key] as? NSNumber, !String(describing: type(of: n)).contains("Boolean") else { return nil }
        return n
    }

    /// The field's value as raw JSON for `EventData.extra` (a string, number or boolean; nil
    /// when absent or of another kind), kept under `name`.
    func extra(_ key: String, as name: String) -> EventData.ExtraField? {
        guard has(key) else { return nil }
        if let s = fields[key] as? String {
            guard let data = try? JSONSerialization.data(withJSONObject: s, options: [.fragmentsAllowed]) else { return nil }
            return .init(name: name, rawJSON: String(decoding: data, as: UTF8.self))
        }
        if let n = fields[key] as? NSNumber {
            if String(describing: type(of: n)).contains("Boolean") { return .init(name: name, rawJSON: n.boolValue ? "true" : "false") }
            guard n.doubleValue.isFinite else { return nil }
            return .init(name: name, rawJSON: n.stringValue)
        }
        return nil
    }

    /// A JSON boolean.
    func bool(_ key: String) throws -> Bool? {
        guard has(key) else { return nil }
        guard let n = fields[key] as? NSNumber, String(describing: type(of: n)).contains("Boolean") else {
            throw EventDecodingError("\(name(key)): expected true or false")
        }
        return n.boolValue
    }

    func strings(_ key: String) throws -> [String] {
        guard has(key) else { return [] }
        guard let a = fields[key] as? [Any] else { throw EventDecodingError("\(name(key)): expected an array") }
        return a.compactMap { $0 as? String }
    }
}

extension Profile {
    /// Credits granted by buying `quantity` of a consumable product (the quantity itself if the
    /// profile does not know it); saturating, so that the door refuses it by `ValueRanges.quantities`.
    func credits(for product: String, quantity: Int) -> Int {
        (self.product(product)?.credits ?? 1).multipliedSaturated(by: max(1, quantity))
    }
}
