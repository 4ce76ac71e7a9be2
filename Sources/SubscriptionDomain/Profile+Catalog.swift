extension Profile {
    /// The import door's catalog check: a purchase, renewal, product change or
    /// credit pack of a product the catalog does not list is refused, naming the product and the
    /// catalog, unless the profile accepts unknown products (`unknownProductEntitlement`). Other
    /// events, and app events that name a product (`purchase_started`, …), are not checked.
    public func checkCatalog(_ e: Event) throws(EventDecodingError) {
        let product: String?
        switch e.data {
        case .purchase(let p):
            try checkFamilySharing(p.familyShared)
            product = p.product
        case .renewal(let r):
            try checkFamilySharing(r.familyShared)
            product = r.product
        case .productChange(let c): product = c.product
        case .consumablePurchase(let c): product = c.product
        case .cancellation, .uncancellation, .billingIssue, .expiration, .refund, .refundReversed, .revoke, .pause,
             .transfer, .creditsUsed, .accountCreated, .accountDeleted, .paywallViewed, .paywallCtaTapped,
             .purchaseStarted, .purchasePending, .purchaseSuccess, .purchaseFailed, .restoreClicked, .restoreSuccess,
             .restoreFailed, .notificationsDisabled, .notificationsEnabled:
            product = nil
        }
        // A familyShared off its type (kept verbatim, ignored by the rules) is refused all the same.
        if e.extra.offType.contains(where: { $0.value == .bool(true) && $0.field == .familyShared }) { try checkFamilySharing(true) }
        guard unknownProductEntitlement == nil, let id = product, self.product(id) == nil else { return }
        throw EventDecodingError("field 'data.product': '\(id)' is not in profile \(name)'s catalog (\(products.map(\.id).joined(separator: ", ")))")
    }

    private func checkFamilySharing(_ familyShared: Bool?) throws(EventDecodingError) {
        if familyShared == true, !familySharing {
            throw EventDecodingError("field 'data.familyShared': profile \(name) does not offer Family Sharing (familySharing: false)")
        }
    }

    /// What a product the catalog does not list gives, when the profile accepts such products:
    /// `unknownProductEntitlement` and the tier of the first catalog product granting it.
    public var unknownProductGrant: (entitlement: String, tier: String?)? {
        guard let e = unknownProductEntitlement else { return nil }
        return (e, products.first { $0.entitlement == e }?.tier)
    }
}
