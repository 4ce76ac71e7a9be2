extension Profile {
    /// The import door's catalog check (issue 20 item 1): a purchase, renewal, product change or
    /// credit pack of a product the catalog does not list is refused, naming the product and the
    /// catalog, unless the profile accepts unknown products (`unknownProductEntitlement`). Other
    /// events, and app events that name a product (`purchase_started`, …), are not checked.
    public func checkCatalog(_ e: Event) throws(EventDecodingError) {
        if e.data.familyShared == true, !familySharing {
            throw EventDecodingError("field 'data.familyShared': profile \(name) does not offer Family Sharing (familySharing: false)")
        }
        guard unknownProductEntitlement == nil, let id = e.data.product, product(id) == nil else { return }
        switch e.type {
        case .purchase, .renewal, .productChange, .consumablePurchase:
            throw EventDecodingError("field 'data.product': '\(id)' is not in profile \(name)'s catalog (\(products.map(\.id).joined(separator: ", ")))")
        default:
            return
        }
    }

    /// What a product the catalog does not list gives, when the profile accepts such products:
    /// `unknownProductEntitlement` and the tier of the first catalog product granting it.
    public var unknownProductGrant: (entitlement: String, tier: String?)? {
        guard let e = unknownProductEntitlement else { return nil }
        return (e, products.first { $0.entitlement == e }?.tier)
    }
}
