/// The store fields the rules read beyond the contract's columns (CONTRACT §2 does not list
/// them): RevenueCat's temporary grant and take-home share. The raw values are the frozen names
/// of the `data` fields that carry them.
///
/// A line keeps them as it wrote them, in their place among the unknown fields
/// (`EventData.Extra.unknown`), so that the canonical encoder writes it back byte for byte; the
/// payload of a type that holds one (`Purchase`, `Renewal`, `ConsumablePurchase`) reads it from
/// there, once, into a typed value when it has the form below, and the rules read only that
/// typed value. A value of another form is an unknown field like any other (it was never refused).
public enum StoreField: String, Sendable, CaseIterable {
    /// `"temporaryGrant": true` on a `purchase`: RevenueCat's `TEMPORARY_ENTITLEMENT_GRANT`
    /// (rule TEMPORARY-GRANT). Form: the JSON literal `true` or `false`.
    case temporaryGrant
    /// `"takehomePercentage": 0.85` on a `purchase`, `renewal` or `consumable_purchase`: the share
    /// of the price the developer keeps after the store's fee (RevenueCat's `takehome_percentage`),
    /// which net revenue prefers to the profile's commission. Form: a JSON number from 0 to 1.
    case takehomePercentage

    /// The field's value in `unknown` as a boolean, when it is `true` or `false`.
    func bool(in unknown: [EventData.ExtraField]) -> Bool? {
        switch raw(in: unknown) {
        case "true": true
        case "false": false
        default: nil
        }
    }

    /// The field's value in `unknown` as parts per million, when it is a number from 0 to 1.
    func partsPerMillion(in unknown: [EventData.ExtraField]) -> Int64? {
        guard let raw = raw(in: unknown), let v = Double(raw), v >= 0, v <= 1 else { return nil }
        return Int64((v * 1_000_000).rounded())
    }

    /// The field's raw JSON in `unknown` (nil when absent; most lines have no unknown field).
    private func raw(in unknown: [EventData.ExtraField]) -> String? {
        guard !unknown.isEmpty else { return nil }
        return unknown.first { $0.name == rawValue }?.rawJSON
    }

    /// The field as an unknown field holding `rawJSON`, for builders (store mappings, the corpus).
    public func field(rawJSON: String) -> EventData.ExtraField { EventData.ExtraField(name: rawValue, rawJSON: rawJSON) }
}
