import SubscriptionDomain

/// The analytics counts (CONTRACT.md §3), in the order people read them: the counted app events,
/// then the store metrics. A metric's slot in `MetricCounts` is its position in this list (the
/// implicit raw values 0, 1, 2…), never a number written by hand; its name in reports and JSON
/// is `name`, frozen, never derived from the Swift case name.
package enum Metric: Int, CaseIterable, Sendable {
    case paywallViewed, paywallCtaTapped, purchaseStarted, purchasePending, purchaseSuccess
    case purchaseFailed, restoreClicked, restoreSuccess, restoreFailed
    case trialStarted, subscriptionStarted, renewal, trialConverted, cancellation, billingIssue, refund, expiration

    /// The metric's frozen name: the key of `counts` in every output format.
    package var name: String {
        switch self {
        case .paywallViewed: "paywall_viewed"
        case .paywallCtaTapped: "paywall_cta_tapped"
        case .purchaseStarted: "purchase_started"
        case .purchasePending: "purchase_pending"
        case .purchaseSuccess: "purchase_success"
        case .purchaseFailed: "purchase_failed"
        case .restoreClicked: "restore_clicked"
        case .restoreSuccess: "restore_success"
        case .restoreFailed: "restore_failed"
        case .trialStarted: "trial_started"
        case .subscriptionStarted: "subscription_started"
        case .renewal: "renewal"
        case .trialConverted: "trial_converted"
        case .cancellation: "cancellation"
        case .billingIssue: "billing_issue"
        case .refund: "refund"
        case .expiration: "expiration"
        }
    }

    /// The slot of this metric in `MetricCounts`: its position in the list.
    package var slot: Int { rawValue }

    /// Every metric, in order (built once: `allCases` builds an array on each call).
    package static let all = Array(allCases)

    /// The metric an event of `type` counts by itself, one per event (not a sandbox event, not a
    /// second report of a transaction: UserFold decides that). `purchase` and `renewal` count by
    /// the rule they took (trial or subscription started, renewal, trial converted): nil here,
    /// counted in `UserFold.apply`.
    static func countedPerEvent(_ type: EventType) -> Metric? {
        switch type {
        case .paywallViewed: .paywallViewed
        case .paywallCtaTapped: .paywallCtaTapped
        case .purchaseStarted: .purchaseStarted
        case .purchasePending: .purchasePending
        case .purchaseSuccess: .purchaseSuccess
        case .purchaseFailed: .purchaseFailed
        case .restoreClicked: .restoreClicked
        case .restoreSuccess: .restoreSuccess
        case .restoreFailed: .restoreFailed
        case .cancellation: .cancellation
        case .billingIssue: .billingIssue
        case .refund: .refund
        case .expiration: .expiration
        case .purchase, .renewal: nil
        case .uncancellation, .refundReversed, .productChange, .revoke, .pause, .transfer, .consumablePurchase,
             .creditsUsed, .accountCreated, .accountDeleted, .notificationsDisabled, .notificationsEnabled: nil
        }
    }
}
