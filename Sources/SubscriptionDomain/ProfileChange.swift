/// Which users a change of profile can fold differently: what a developer's "billing grace 3 → 7
/// days" reaches, so that a result kept under the old profile is brought to the new one by
/// folding those users again, not everyone.
///
/// A user's fold, and what the reports take from it, read the profile through `PlanDecider`:
/// the billing grace when a billing issue gives no grace end of its own (`billingIssue` events),
/// the trial reminder's lead when a purchase starts a trial (`purchase` events), and the catalog
/// by product id (`listedPrice`, `product`, the group) for products the user's own events name
/// (`purchase`, `renewal`, `productChange`, `consumablePurchase`). A subscription handed over by
/// a transfer carries its sender's product and dates: the recipients of transfers are the
/// caller's to fold again whenever their senders are. The unverified grace and the commission
/// reach every user with a subscription or money, so a change of either (or of the app) reaches
/// everyone. The names, texts, store ids, tiers, primary group, trial length, Family Sharing
/// switch and unknown-product entitlement are read by the import door and the entitlement
/// view, not by a fold: a change of them alone reaches no one.
///
/// Any field not named here is compared whole: a profile field added later reaches everyone
/// until it is classified, never no one.
public struct ProfileChange: Sendable, Equatable {
    /// The change can fold any user differently: nothing narrower is known.
    public let reachesEveryone: Bool
    /// The billing grace changed: users with a billing issue.
    let billingGrace: Bool
    /// The trial reminder's lead changed: users with a purchase.
    let trialReminder: Bool
    /// The products whose catalog entry (the first listed with the id) differs, or that only one profile lists.
    let products: Set<String>
    /// The entitlement view (`PlanDecider.view`) reads, for every user, something that changed: the
    /// tiers and their limits, the trial length and primary group (trial eligibility), or the
    /// unknown-product entitlement. A fold and the reports do not read them; a user's plan does.
    public let changesTheView: Bool

    /// The change from `old` to `new`.
    public init(from old: Profile, to new: Profile) {
        var aligned = old
        changesTheView = old.tiers != new.tiers || old.trialDays != new.trialDays || old.primaryGroup != new.primaryGroup
            || old.unknownProductEntitlement != new.unknownProductEntitlement
        // Read by the import door and the entitlement view only.
        aligned.name = new.name
        aligned.tiers = new.tiers
        aligned.primaryGroup = new.primaryGroup
        aligned.trialDays = new.trialDays
        aligned.familySharing = new.familySharing
        aligned.unknownProductEntitlement = new.unknownProductEntitlement
        aligned.bundleId = new.bundleId
        aligned.appAppleId = new.appAppleId
        aligned.deepLinkScheme = new.deepLinkScheme
        aligned.trialEndingCopy = new.trialEndingCopy
        aligned.paymentFailedCopy = new.paymentFailedCopy
        // Read for some users: those whose events the predicate below names.
        billingGrace = old.billingGraceDays != new.billingGraceDays
        aligned.billingGraceDays = new.billingGraceDays
        trialReminder = old.trialReminderLeadHours != new.trialReminderLeadHours
        aligned.trialReminderLeadHours = new.trialReminderLeadHours
        let ids = Set(old.products.map(\.id)).union(new.products.map(\.id))
        products = ids.filter { old.product($0) != new.product($0) }
        aligned.products = new.products
        reachesEveryone = aligned != new
    }

    /// Whether nobody's fold can differ (only fields no fold reads changed).
    public var reachesNobody: Bool { !reachesEveryone && !billingGrace && !trialReminder && products.isEmpty }

    /// Whether what changed is read only when an event it reaches is folded, never at the instants
    /// between (the catalog is read whenever a subscription's worth is measured): past a user's
    /// last event the change reaches, two folds of them that hold the same stay the same.
    public var readAtEventsOnly: Bool { !reachesEveryone && products.isEmpty }

    /// The types of the events the change can reach (`reaches`): a user with none of them is folded alike.
    public var eventTypes: Set<EventType> {
        if reachesEveryone { return Set(EventType.allCases) }
        var types: Set<EventType> = []
        if billingGrace { types.insert(.billingIssue) }
        if trialReminder { types.insert(.purchase) }
        if !products.isEmpty { types.formUnion([.purchase, .renewal, .productChange, .consumablePurchase]) }
        return types
    }

    /// Whether folding `event` can read what changed: a user's fold (their own events, without
    /// what transfers hand them) is the same under both profiles up to their first such event.
    public func reaches(_ event: Event) -> Bool {
        if reachesEveryone { return true }
        switch event.data {
        case .billingIssue: return billingGrace
        case .purchase(let p): return trialReminder || products.contains(p.product)
        case .renewal(let r): return products.contains(r.product)
        case .productChange(let c): return products.contains(c.product)
        case .consumablePurchase(let c): return products.contains(c.product)
        case .accountCreated, .accountDeleted, .cancellation, .uncancellation, .pause, .expiration, .revoke, .transfer,
             .refund, .refundReversed, .creditsUsed, .notificationsDisabled, .notificationsEnabled, .paywallViewed,
             .paywallCtaTapped, .purchaseStarted, .purchasePending, .purchaseSuccess, .purchaseFailed, .restoreClicked,
             .restoreSuccess, .restoreFailed:
            return false
        }
    }
}
