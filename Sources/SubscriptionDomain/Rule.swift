/// The rule behind a state change: a short id (seed 004's where it has one) and a sentence.
public struct Rule: Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var summary: String
    public init(_ id: String, _ summary: String) { self.id = id; self.summary = summary }
    public var description: String { "\(id): \(summary)" }

    public static let initial = Rule("CH08 L349", "no account and no purchase yet: guest")
    public static let accountCreated = Rule("ACCOUNT-CREATED", "an account makes a guest a free user")
    public static let accountDeleted = Rule("CH34 L771", "deleting the account does not cancel the Apple subscription")
    public static let purchaseStartsPro = Rule("CH25 L736", "a confirmed purchase unlocks Pro immediately")
    public static let purchaseStartsTrial = Rule("CH25 L589", "a free-trial purchase starts the trial at once; it ends at expires")
    public static let trialOncePerGroup = Rule("CH25 L582", "trials are for new subscribers: once per user per subscription group")
    public static let renewal = Rule("RENEWAL", "a paid renewal extends access to its expires")
    public static let trialConverted = Rule("CH08 L324", "the first paid renewal after a trial converts it to Pro")
    public static let billingRecovered = Rule("SK-D01 recovered", "a renewal during billing grace ends the billing issue")
    public static let lateRenewal = Rule("LATE-RENEWAL", "a renewal after access ended restores Pro to its expires")
    public static let renewalWithoutPurchase = Rule("RENEWAL-ADOPTED", "a renewal with no known purchase starts the subscription it reports")
    public static let duplicateTransaction = Rule("SAME-TRANSACTION", "a second report of the same transaction counts once")
    public static let cancelKeepsAccess = Rule("CANCEL", "auto-renew off: access continues until expires")
    public static let cancelDuringTrial = Rule("CH25 L590", "cancelling during a trial keeps the trial until it ends, then Free")
    public static let uncancel = Rule("UNCANCEL", "auto-renew back on")
    public static let billingGrace = Rule("SK-D01", "payment failed: Pro grace (billing) for the billing grace period, then Free unless renewed")
    public static let billingGraceEnded = Rule("SK-D01 ended", "billing grace ran out without a renewal: Free")
    public static let expiration = Rule("EXPIRATION", "the store reports the subscription expired: access ends")
    public static let refundCurrent = Rule("SK-D08", "refund of the current period's transaction ends access at once")
    public static let refundOlder = Rule("SK-D08 books", "refund of an older transaction changes only the books")
    public static let refundReversed = Rule("REFUND-REVERSED", "the refund was reversed: access is back as before it")
    public static let upgradeNow = Rule("SK-D07", "product change takes effect immediately")
    public static let downgradeAtRenewal = Rule("SK-D07 next_renewal", "product change waits for the next renewal")
    public static let revoke = Rule("REVOKE", "Family Sharing access withdrawn: access ends at once")
    public static let transferOut = Rule("TRANSFER-OUT", "the subscription moved to another user")
    public static let transferIn = Rule("TRANSFER-IN", "a subscription moved here from another user (restore on a new account)")
    public static let creditsAdded = Rule("CREDITS-ADDED", "a consumable purchase adds its credits")
    public static let creditsUsed = Rule("CREDITS-USED", "credits are spent, never below zero")
    public static let noSubscription = Rule("NO-SUBSCRIPTION", "a lifecycle event for a subscription this user does not have changes nothing")
    public static let sandboxApart = Rule("SANDBOX", "sandbox events are kept apart from production")
    public static let appEvent = Rule("CH08 L343", "app events do not change the plan (pending or failed purchases keep the current plan)")
    public static let notificationCategory = Rule("CH27 L203", "notification category switched; in-app reminders still show")
    public static let trialEnded = Rule("CH08 L324 ended", "the trial ended without a paid renewal: Free")
    public static let cancelledEnded = Rule("CANCEL ended", "a cancelled subscription ends at expires")
    public static let unverifiedGrace = Rule("SK-D04", "period passed expires with no renewal or expiration in the log: 24 h Pro grace (unverified)")
    public static let unverifiedGraceEnded = Rule("SK-D04 ended", "unverified grace ran out: Free until the store reports a renewal")
}
