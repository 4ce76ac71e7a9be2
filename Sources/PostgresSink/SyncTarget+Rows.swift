import SubscriptionDomain

/// What one ledger user becomes in a target's table: the mapping docs/postgres.md states, column
/// by column. Everything comes from the user's plan as of the sync's instant (`PlanDecider.view`)
/// and the subscription the plan is about.
public enum SyncRow: Sendable, Equatable {
    /// The user's row: the key (first COPY field) and the staged fields.
    case row(key: String, fields: [String?])
    /// No row (no subscription); `key` finds rows to delete, nil if the user id cannot be a key.
    case none(key: String?)
    /// The table cannot hold this user: why (reported in `ledger_sync_skipped`).
    case skipped(reason: String)
}

extension SyncTarget {
    /// The row for `s` as of `asOf`.
    public func row(_ s: SubscriberState, decider: PlanDecider, asOf: Timestamp) -> SyncRow {
        switch self {
        case .mirrormate: mirrormateRow(s, decider: decider, asOf: asOf)
        case .tomo: tomoRow(s, decider: decider, asOf: asOf)
        case .howru: howruRow(s, decider: decider, asOf: asOf)
        }
    }

    /// The production subscription the user holds, unless it moved to another user.
    static func held(_ s: SubscriberState) -> Subscription? {
        guard let sub = s.subscription, sub.endedBy != .transferOut else { return nil }
        return sub
    }

    static func time(_ t: Timestamp?) -> String? { t?.description }
    static func bool(_ b: Bool) -> String { b ? "t" : "f" }

    private func mirrormateRow(_ s: SubscriberState, decider: PlanDecider, asOf: Timestamp) -> SyncRow {
        let key = SQLText.isUUID(s.user) ? s.user : nil
        guard let sub = Self.held(s) else { return .none(key: key) }
        guard let key else { return .skipped(reason: "user id is not a UUID (subscriptions.user_id is uuid)") }
        guard SQLText.fitsText(sub.originalTransaction), SQLText.fitsText(sub.product) else {
            return .skipped(reason: "a NUL character in the transaction or product id")
        }
        let v = decider.view(s, at: asOf)
        let withdrawn = sub.endedBy == .refundCurrent || sub.endedBy == .revoke
        let status = switch v.planState {
        case .trial, .pro: "active"
        case .proGrace: "grace_period"
        case .free, .guest: withdrawn ? "cancelled" : "expired"
        }
        return .row(key: key, fields: [
            key, sub.originalTransaction, sub.product, status, Self.time(sub.expires), Self.bool(v.autoRenew ?? false),
            Self.bool(sub.isTrial), sub.isTrial ? Self.time(sub.expires) : nil, Self.time(sub.startedAt),
            Self.time(sub.autoRenewOffAt ?? (withdrawn ? sub.endedAt : nil)),
        ])
    }

    private func tomoRow(_ s: SubscriberState, decider: PlanDecider, asOf: Timestamp) -> SyncRow {
        guard SQLText.isUUID(s.user) else { return .skipped(reason: "user id is not a UUID (profiles.id is uuid)") }
        let v = decider.view(s, at: asOf)
        return .row(key: s.user, fields: [s.user, v.tier, Self.time(Self.held(s)?.expires), s.user])
    }

    private func howruRow(_ s: SubscriberState, decider: PlanDecider, asOf: Timestamp) -> SyncRow {
        let fits = SQLText.fitsText(s.user, maxLength: 255)
        var plan = s
        // A user with only a sandbox subscription gets a row marked is_sandbox (seed 002 keeps them);
        // it is evaluated in the production slot (which stamps it production), so remember it here.
        let sandboxOnly = Self.held(s) == nil && s.sandbox != nil
        if sandboxOnly, let sandbox = s.sandbox {
            plan.subscription = sandbox
        }
        guard let sub = Self.held(plan) else { return .none(key: fits ? s.user : nil) }
        guard fits else { return .skipped(reason: "user id longer than 255 characters or holding NUL (subscriptions.revenue_cat_id is varchar(255))") }
        guard SQLText.fitsText(sub.product, maxLength: 100) else { return .skipped(reason: "product id longer than 100 characters (subscriptions.product_id is varchar(100))") }
        let v = decider.view(plan, at: asOf)
        let status = switch v.planState {
        case .trial: "trial"
        case .pro: v.autoRenew == true ? "active" : "cancelled"
        case .proGrace: v.graceReason == .billing ? "billing_issue" : "grace_period"
        case .free, .guest: sub.endedBy == .refundCurrent ? "refunded" : sub.endedBy == .revoke ? "revoked" : "expired"
        }
        return .row(key: s.user, fields: [
            s.user, SQLText.isUUID(s.user) ? s.user : nil, v.tier, status, sub.product, "app_store",
            Self.time(sub.startedAt), Self.time(sub.expires), Self.bool(sandboxOnly),
        ])
    }
}
