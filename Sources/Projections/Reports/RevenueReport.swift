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
    /// Users who started a trial, and those of them who converted (the rate's terms).
    public var trialsStarted: Int
    public var trialsConverted: Int
    /// What `net` was computed from beyond the lines: the commission taken, and the store's own
    /// take-home adjustments per currency (so that reports of several partitions merge exactly).
    public var commissionPercent: Int
    public var takehomeAdjustments: [String: Money]

    package init(lines: [Line], activeSubscriptions: Int, activeTrials: Int, churnedSubscribers: Int, churnRate: Double, trialConversionRate: Double, trialsStarted: Int, trialsConverted: Int, commissionPercent: Int, takehomeAdjustments: [String: Money]) {
        self.lines = lines
        self.activeSubscriptions = activeSubscriptions
        self.activeTrials = activeTrials
        self.churnedSubscribers = churnedSubscribers
        self.churnRate = churnRate
        self.trialConversionRate = trialConversionRate
        self.trialsStarted = trialsStarted
        self.trialsConverted = trialsConverted
        self.commissionPercent = commissionPercent
        self.takehomeAdjustments = takehomeAdjustments
    }
}

extension RevenueReport {
    /// One currency's line; `net` is what is kept of gross − refunded after the commission and
    /// the store's own take-home adjustment (which, where the store said it, replaces the commission).
    package static func line(currency c: String, gross g: Money, refunded r: Money, mrr: Money, commissionPercent: Int, adjustment: Money) -> Line {
        let kept = g - r
        return Line(currency: c, gross: g, refunded: r, net: kept - kept.percent(commissionPercent) - adjustment, mrr: mrr)
    }
}

extension LedgerSnapshot {
    /// Whether a user who is not subscribed as of the instant counts as churned: they had a
    /// subscription that did not move to another account (a transfer is the same subscription
    /// restored elsewhere, not a loss), and they were charged, or their subscription's period was
    /// a paid one (what a subscription received by transfer shows: its sender paid for it; a
    /// trial or a period at price 0 is not). A family member's access is never a churn; a
    /// temporary grant (TEMPORARY-GRANT) is access, not a subscription: its user churned only if
    /// they were charged (a paid subscription that lapsed before the grant).
    static func isChurned(_ f: UserFold) -> Bool { isChurned(f.state, books: f.books) }

    static func isChurned(_ state: borrowing SubscriberState, books: borrowing UserBooks) -> Bool {
        // The production subscription's fields read in place (`subscription` would copy it: a walk asks at every instant).
        guard let i = state.index(of: .production), state.subscriptions[i].endedBy != .transferOut, !state.subscriptions[i].familyShared else {
            return false
        }
        if !books.charges.isEmpty { return true }
        if state.subscriptions[i].temporaryGrant { return false }
        return !state.subscriptions[i].isTrial && (state.subscriptions[i].price.map { $0 > .zero } ?? true)
    }

    /// Revenue as of `options.asOf`.
    public func revenue() -> RevenueReport {
        let profile = options.profile
        var gross = FewKeys<Money>(), refunded = FewKeys<Money>(), mrr = FewKeys<Money>(), adjustment = FewKeys<Money>()
        var active = 0, trials = 0, churned = 0, started = 0, converted = 0
        users.forEachFold { f in
            for a in f.books.gross { gross[a.currency, default: .zero] += a.money }
            for a in f.books.refunded { refunded[a.currency, default: .zero] += a.money }
            for a in f.books.takehomeAdjustment { adjustment[a.currency, default: .zero] += a.money }
            if f.trialStartedAt != nil { started += 1 }
            if f.trialConverted { converted += 1 }
            let stock = SubscriberStock.of(f.state, books: f.books, decider: decider, at: options.asOf)
            active += stock.active
            trials += stock.trial
            churned += stock.churned
            if stock.active > 0, !stock.currency.isEmpty { mrr[stock.currency, default: .zero] += stock.mrr }
        }
        let currencies = Set(gross.keys).union(refunded.keys).union(mrr.keys).sorted()
        let lines = currencies.map { c in
            RevenueReport.line(currency: c, gross: gross[c, default: .zero], refunded: refunded[c, default: .zero], mrr: mrr[c, default: .zero],
                               commissionPercent: profile.commissionPercent, adjustment: adjustment[c, default: .zero])
        }
        return RevenueReport(
            lines: lines, activeSubscriptions: active, activeTrials: trials, churnedSubscribers: churned,
            churnRate: Rates.churn(churned: churned, active: active),
            trialConversionRate: Rates.trialConversion(started: started, converted: converted),
            trialsStarted: started, trialsConverted: converted, commissionPercent: profile.commissionPercent,
            takehomeAdjustments: adjustment.dictionary)
    }
}
