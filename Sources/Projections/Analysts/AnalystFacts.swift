import SubscriptionDomain

/// What one user's walk (`AnalystWalk`) yields for the analysts' model: each a dated fact, so
/// that a figure as of an instant T is the facts dated at or before T (what a replay as of T
/// folds), and a window's figure the facts dated within it.
package struct AnalystFacts: Sendable {
    /// A change of the user's paid subscription (Active Subscriptions and MRR movement).
    package struct Movement: Sendable, Equatable {
        /// `segmentOut`/`segmentIn`: an active subscription moved from one segment to another
        /// (its MRR with it): a pair that cancels in every total.
        package enum Kind: UInt8, Sendable { case new, resubscribed, churned, expansion, contraction, segmentOut, segmentIn }
        var time: Timestamp
        var kind: Kind
        var currency: String
        /// The MRR moved, in micros, always at or above zero (its sign is the kind's).
        var mrr: Int64
        var segments: SegmentValues
    }

    /// The user's first free trial and how it ended.
    package struct Trial: Sendable, Equatable {
        var start: Timestamp
        /// The first paid renewal after it (rule TRIAL-CONVERTED), if any.
        var convertedAt: Timestamp?
        /// When its access ended without a conversion (the trial expired, was refunded or revoked), if it did.
        var abandonedAt: Timestamp?
        var segments: SegmentValues
    }

    /// A charge the books record (a purchase, a renewal, an upgrade charged at once, a credit pack).
    package struct Charge: Sendable, Equatable {
        var time: Timestamp
        var currency: String
        var micros: Int64
        var segments: SegmentValues
    }

    /// A refund (`sign` 1) or its reversal (`sign` -1) of a charge made at `chargeTime`.
    package struct Refund: Sendable, Equatable {
        var time: Timestamp
        var chargeTime: Timestamp
        var currency: String
        var micros: Int64
        var sign: Int8
        var segments: SegmentValues
    }

    /// The plan as customer lists filter it, from `start` until the next span's start.
    package struct Span: Sendable, Equatable {
        package var start: Timestamp
        package var planState: PlanState
        package var graceReason: GraceReason?
        package var graceEndsAt: Timestamp?
        package var product: String?
        package var tier: String
        package var expiresAt: Timestamp?
        package var autoRenew: Bool?
        package var billingIssue: Bool

        package init(start: Timestamp, planState: PlanState, graceReason: GraceReason?, graceEndsAt: Timestamp?, product: String?, tier: String, expiresAt: Timestamp?, autoRenew: Bool?, billingIssue: Bool) {
            self.start = start
            self.planState = planState
            self.graceReason = graceReason
            self.graceEndsAt = graceEndsAt
            self.product = product
            self.tier = tier
            self.expiresAt = expiresAt
            self.autoRenew = autoRenew
            self.billingIssue = billingIssue
        }
    }

    package var user: String
    /// The user's first event (a new customer, as RevenueCat's "first seen").
    var firstSeen: Timestamp?
    /// The first trial start or paid charge (initial conversion), and the first paid charge.
    var firstConversion: Timestamp?
    var firstPaid: Timestamp?
    /// The segments of the first conversion (`none` before any).
    var customerSegments = SegmentValues.none
    var movements: [Movement] = []
    var trial: Trial?
    var charges: [Charge] = []
    var refunds: [Refund] = []
    /// The distinct UTC days (since 1970) with an event of the user, ascending.
    var activeDays: [Int64] = []
    var spans: [Span] = []

    init(user: String) { self.user = user }
}
