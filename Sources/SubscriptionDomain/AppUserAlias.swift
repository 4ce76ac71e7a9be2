import Foundation

/// The id a store event arrived under when the ledger filed it under another id of the same
/// subscriber: RevenueCat names a customer by the first app user id it saw
/// (`original_app_user_id`, often `$RCAnonymousID:…`) and lists the later ones (`aliases`); a
/// webhook under an identified `app_user_id` the ledger does not hold yet goes to the id it
/// holds, and keeps the identified id in `data.appUserId` (an unknown field to the rules, kept
/// verbatim). The log's secondary-key index finds those records by it, so that the identified id
/// reads the subscriber's history without a scan (`Replay.aliasedStreams`).
public enum AppUserAlias {
    /// The `data` field holding the id the event arrived under.
    public static let field = "appUserId"

    /// The bytes every canonical line holding the field contains (`"appUserId":"`).
    public static let marker: [UInt8] = Array("\"\(field)\":\"".utf8)

    /// The field's value for an event filed under another id.
    public static func extraField(_ appUserID: String) -> EventData.ExtraField? {
        guard let data = try? JSONSerialization.data(withJSONObject: appUserID, options: [.fragmentsAllowed]) else { return nil }
        return EventData.ExtraField(name: field, rawJSON: String(decoding: data, as: UTF8.self))
    }

    /// The id a decoded event arrived under, when it was filed under another one (nil otherwise,
    /// or when the field is not a non-empty string other than the event's user).
    public static func appUserID(of event: Event) -> String? {
        guard let raw = event.allFields.extra.first(where: { $0.name == field })?.rawJSON,
              let value = try? JSONSerialization.jsonObject(with: Data(raw.utf8), options: [.fragmentsAllowed]) as? String,
              !value.isEmpty, value != event.user else { return nil }
        return value
    }
}
