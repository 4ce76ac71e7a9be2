import SubscriptionDomain

/// Money and subscriber counts (definitions in docs/rules.md#revenue).
public struct RevenueReport: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var currency: String
        /// Sum of charged purchases, renewals and credit packs (trials are free).
        public var gross: Money
        /// Sum of refunds (net of reversed refunds).
        public var refunded: Money
        /// (gross − refunded) after the store's commission.
        public var net: Money
        /// Monthly recurring revenue of the active paid subscriptions, each normalised to a month.
        public var mrr: Money
    }
    public var lines: [Line]
    /// Users in `pro` or `pro_grace` as of the instant.
    public var activeSubscriptions: Int
    /// Users in `trial` as of the instant.
    public var activeTrials: Int
    /// Users who paid at some point and are no longer subscribed as of the instant.
    public var churnedSubscribers: Int
    /// churned / (churned + active paid).
    public var churnRate: Double
    /// Trials converted / trials started.
    public var trialConversionRate: Double
}

extension LedgerSnapshot {
    /// Whether a user who is not subscribed as of the instant counts as churned: they had a
    /// subscription that did not move to another account (a transfer is the same subscription
    /// restored elsewhere, not a loss), and they were charged, or their subscription's period was
    /// a paid one (what a subscription received by transfer shows: its sender paid for it; a
    /// trial or a grant at price 0 is not).
    static func isChurned(_ f: UserFold) -> Bool { isChurned(f.state, books: f.books) }

    static func isChurned(_ state: SubscriberState, books: UserBooks) -> Bool {
        guard let sub = state.subscription, sub.endedBy != .transferOut, !sub.familyShared else { return false }
        if !books.charges.isEmpty { return true }
        return !sub.isTrial && (sub.price.map { $0 > .zero } ?? true)
    }

    /// Revenue as of `options.asOf`.
    public func revenue() -> RevenueReport {
        let profile = options.profile
        var gross = FewKeys<Money>(), refunded = FewKeys<Money>(), mrr = FewKeys<Money>(), adjustment = FewKeys<Money>()
        var active = 0, trials = 0, churned = 0, started = 0, converted = 0
        users.forEachFold { f in
            for a in f.pointee.books.gross { gross[a.currency, default: .zero] += a.money }
            for a in f.pointee.books.refunded { refunded[a.currency, default: .zero] += a.money }
            for a in f.pointee.books.takehomeAdjustment { adjustment[a.currency, default: .zero] += a.money }
            if f.pointee.trialStartedAt != nil { started += 1 }
            if f.pointee.trialConverted { converted += 1 }
            let stock = SubscriberStock.of(f.pointee.state, books: f.pointee.books, decider: decider, at: options.asOf)
            active += stock.active
            trials += stock.trial
            churned += stock.churned
            if stock.active > 0, !stock.currency.isEmpty { mrr[stock.currency, default: .zero] += stock.mrr }
        }
        let currencies = Set(gross.keys).union(refunded.keys).union(mrr.keys).sorted()
        let lines = currencies.map { c in
            let g = gross[c, default: .zero], r = refunded[c, default: .zero]
            let kept = g - r
            // The store's own take-home share, where it said it, replaces the profile's commission.
            let net = kept - kept.percent(profile.commissionPercent) - adjustment[c, default: .zero]
            return RevenueReport.Line(currency: c, gross: g, refunded: r, net: net, mrr: mrr[c, default: .zero])
        }
        return RevenueReport(
            lines: lines, activeSubscriptions: active, activeTrials: trials, churnedSubscribers: churned,
            churnRate: churned + active == 0 ? 0 : Double(churned) / Double(churned + active),
            trialConversionRate: started == 0 ? 0 : Double(converted) / Double(started))
    }
}
